// The verdicts a row can get on one evidence (any kind of the registry, src/evidence).
export const VERDICTS = ['regression', 'improvement', '~'] as const;
export type Verdict = (typeof VERDICTS)[number];
