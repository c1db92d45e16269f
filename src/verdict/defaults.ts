// Defaults of the A/B verdict, shared by the CLI and the action. Chosen from the A/A and injected
// slowdown calibration (bench/calibrate.ts); README "Calibration" has the figures and the method.
export const AB_DEFAULTS = {
  rounds: 12,
  alpha: 0.02,
  threshold: 0.02,
  /** Whole A/B run; when spent, no new round starts and the rounds done so far are judged. */
  runBudgetMs: 30 * 60_000,
} as const;
