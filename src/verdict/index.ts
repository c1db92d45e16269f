// src/verdict: the A/B verdict of each report row, whichever design measured it. The API:
// - AbRow: one report row (case x param label) with its status, medians, ratio, interval, q and
//   verdict; PairedRow: a same-job row before judging (src/run/pairs.ts makes them).
// - judgePaired(rows, spec, {alpha, threshold}): same-job paired rounds (Wilcoxon signed-rank,
//   Hodges–Lehmann, BH across rows).
// - judgeHistory(head, records, spec, {alpha, threshold, branch, lastRuns}): head run against the
//   branch's history (Mann–Whitney, two-sample Hodges–Lehmann, BH), cross-machine.
// - countRows(rows): the headline counts (and the action's outputs); AbRowSchema validates rows
//   read back from a file (the fork-safe comment job).
// - judgeInstructions(base, baseAgain, head, {threshold}): the instruction-count verdict of a CPU row
//   (reaching the threshold, within the row's noise, and ten times the A/A spread); flaggedBy/rowVerdict combine it with wall time.
// - AB_DEFAULTS: rounds, alpha, threshold and run budget shared by the CLI and the action.
// Statistics live in src/stats; rendering rows lives in src/report; this folder only decides.
export { AB_DEFAULTS } from './defaults.js';
export { AbRowSchema, countRows, flaggedBy, rowVerdict, type AbCounts, type AbRow, type AbStatus, type PairedRow } from './row.js';
export { INSTRUCTION_DEFAULTS, judgeInstructions, type InstructionVerdict } from './instructions.js';
export { judgePaired, type JudgeOptions } from './judge.js';
export { judgeHistory, type HistoryOptions } from './history.js';
