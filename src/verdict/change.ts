// The verdicts a row can get on one kind of evidence (wall time, instruction counts).
export const VERDICTS = ['regression', 'improvement', '~'] as const;
export type Verdict = (typeof VERDICTS)[number];
