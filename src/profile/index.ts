// Function profiles from callgrind dumps (docs/profiles.md): a row's profile from a counting run's
// kept dumps, the difference head against base, and the file formats they are written in. Reading,
// computing and writing a row's files (files.ts); the report's renderers draw them.

export { callgrindText } from './callgrind-write.js';
export { compactProfile, diffCompact } from './compact.js';
export { diffProfiles } from './diff.js';
export { displayName } from './names.js';
export { pprofBytes } from './pprof.js';
export { dumpsByUnit, type RowProfile, type Symbolizer } from './row-profile.js';
export {
  type CompactProfile,
  type ProfileDiff,
  type RunProfiles,
  COMPACT_CAPS,
  CompactProfileSchema,
  ProfileDiffSchema,
  ProfileDiffsSchema,
  RunProfilesSchema,
  MAX_PROFILED_ROWS,
} from './schema.js';
export { boundedStacks, foldedText } from './stacks.js';
export { profileOf, rowFolder, type KeptDumps, type RowRef } from './kept.js';
export { DIFF_FILES, diffJson, folderBytes, MAX_PROFILE_BYTES, profileAb, profilesDir, ROW_FILES, writeRowProfiles, type DiffView } from './files.js';
export { mergeStacks, type FlameFrame } from './stacks.js';
