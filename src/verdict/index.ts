// src/verdict: every decision about a row, and nowhere else (test/structure.test.ts checks). One
// function per decision:
// - wall time: wallVerdict (q < alpha and a ratio beyond the threshold), applied after BH by
//   judgeWall; judgePaired (same-job paired rounds) and judgeHistory (against the branch's
//   history) compute the statistics (src/stats) and apply it.
// - the deterministic evidences: judgeSteps (each row at the larger of a floor and ten A/A spreads)
//   is the instruction-count rule; judgeAllocations applies it to bytes, and allocation counts
//   where the runtime gives them; attachStepRows puts either on the report's rows.
// - the row: AbRow holds each evidence's verdict (or why none) under `evidence`, by kind;
//   flaggedBy (which evidence flagged it), rowVerdict (any regression is a regression) and
//   withVerdicts (the one place a row's own verdict is set), flaggedRows (the rows to annotate).
// - a figure's precision: precisionReasons / lowPrecision (too few ops in all, or too wide a
//   median interval), which keeps a row out of the scoreboard's headline.
// - the policy: failingRows / failsOn (fail-on: an evidence of the registry, or any).
// - the counts of outputs, comment and annotations: countRows.
// AbRow is the row every report is made of; AbRowSchema validates rows read back from a file.
// AB_DEFAULTS / INSTRUCTION_DEFAULTS / ALLOCATION_DEFAULTS: the defaults shared by the CLI and the action.
export { AB_DEFAULTS } from './defaults.js';
export { VERDICTS, type Verdict } from './change.js';
export { judgeWall, wallVerdict, type WallOptions } from './wall.js';
export {
  AbRowSchema,
  countRows,
  flaggedBy,
  flaggedOn,
  flaggedRows,
  judgedOf,
  noteOf,
  rowVerdict,
  wallOf,
  withVerdicts,
  type AbCounts,
  type AbRow,
  type AbStatus,
  type DeterministicVerdicts,
  type EvidenceVerdict,
  type EvidenceVerdicts,
  type PairedRow,
  type RowEvidence,
  type WallVerdict,
} from './row.js';
export { INSTRUCTION_DEFAULTS, judgeSteps, type StepCounts, type StepOptions, type StepVerdict } from './steps.js';
export { attachStepRows, type StepRow, type StepRule } from './step-rows.js';
export { ALLOCATION_DEFAULTS, judgeAllocations, type AllocationFigures, type AllocationOptions, type AllocationVerdict } from './allocations.js';
export { FailOnSchema, failingRows, failsOn, type FailOn } from './fail-on.js';
export { judgePaired, type JudgeOptions } from './judge.js';
export { LOAD_SPREAD, loadShift, type LoadShift } from './load-shift.js';
export { judgeHistory, type HistoryOptions } from './history.js';
export { LOW_PRECISION_RULE, MAX_SPREAD, MIN_TOTAL_OPS, lowPrecision, medianSpread, precisionReasons, type PrecisionReason } from './precision.js';
export { cellDirection, type CellDirection } from './experiment.js';
