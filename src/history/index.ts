// src/history: the gh-pages store. record (Result -> record, path, validating parse), read (runs/),
// derive (pure: records -> index.json + series/*), store (git write with replay-on-reject), gab
// (github-action-benchmark import/export). pages/ reads only the derived files (schema.ts).
export * from './schema.js';
export * from './record.js';
export * from './read.js';
export * from './derive.js';
export { detectShifts, DEFAULT_SHIFT, type Shift, type ShiftOptions } from './shift.js';
export { scoreboard, scoreRun, type GroupOf } from './scoreboard.js';
export { writeHistory, writeFolder, staleDerived, writeDerived, normalizeFolder, RecordConflictError, type WriteOptions, type WriteReport } from './store.js';
export { gitIn, GitError, DEFAULT_IDENTITY, type Git, type Identity, type RemoteAuth } from './git.js';
export * from './gab.js';
export { stableJson, stableJsonPretty } from './json.js';
export * from './publish.js';
export { PROFILES_DIR, MAX_RUN_PROFILES_BYTES, profilesPath, readRunProfiles, serializeRunProfiles } from './profiles.js';
export * from './experiments.js';
