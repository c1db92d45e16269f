// The two sides of an A/B: the client before the change (base) and after it (head). The rounds,
// their pacing (turns.ts) and the pairing of their samples all speak of a side.
export type Side = 'base' | 'head';
