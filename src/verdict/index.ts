// src/verdict: the A/B verdict of each report row, whichever design measured it. The API:
// - AbRow: one report row (case x param label) with its status, medians, ratio, interval, q and
//   verdict; PairedRow: a same-job row before judging (src/run/pairs.ts makes them).
// - judgePaired(rows, spec, {alpha, threshold}): same-job paired rounds (Wilcoxon signed-rank,
//   Hodges–Lehmann, BH across rows).
// - judgeHistory(head, records, spec, {alpha, threshold, branch, lastRuns}): head run against the
//   branch's history (Mann–Whitney, two-sample Hodges–Lehmann, BH), cross-machine.
// - countRows(rows): the headline counts (and the action's outputs).
// - AB_DEFAULTS: rounds, alpha, threshold and run budget shared by the CLI and the action.
// Statistics live in src/stats; rendering rows lives in src/report; this folder only decides.
export { AB_DEFAULTS } from './defaults.js';
export { countRows, type AbCounts, type AbRow, type AbStatus, type PairedRow } from './row.js';
export { judgePaired, type JudgeOptions } from './judge.js';
export { judgeHistory, type HistoryOptions } from './history.js';
