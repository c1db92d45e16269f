// src/evidence: the registry of evidences, one record per MeasureKind (the only list of them), what a
// reader sees of each (views.ts), and the one deterministic A/B. Orchestrations (src/pipeline, src/shard) loop over a Measure and ask
// EVIDENCES[kind]; docs/design.md "Evidence" says what a record holds.
export { EVIDENCES, PROFILED, deterministicEvidence, deterministicOf } from './registry.js';

export { deterministicAb, type DeterministicAbOptions, type DeterministicAbOutcome } from './deterministic-ab.js';
export {
  COLUMN_VIEWS,
  EvidenceSettingSchema,
  VIEWS,
  VIEW_LIST,
  figureOf,
  noteOf,
  settingOf,
  type EvidenceEnv,
  type EvidenceFigure,
  type EvidenceSetting,
  type EvidenceView,
} from './views.js';
export { runEvidence, type EvidenceJobOptions } from './run.js';
export type { AnyDeterministic, DeterministicFigures, Evidence } from './registry.js';
export type { DeterministicEvidence, EvidenceRun, EvidenceRunOptions, WallEvidence } from './record.js';
