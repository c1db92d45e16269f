// "Did you mean": the closest of a set of names to what was typed, by edit distance, so a
// mistyped flag (--runners, --bogus) is answered in one line instead of Node's parser message.

/** Levenshtein distance (insertions, deletions, substitutions, each 1). */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}

/**
 * The candidate closest to `typed`, or undefined when none is close: a candidate that `typed`
 * starts with or that starts with `typed` wins, else the smallest edit distance within a third of
 * the typed length (at least 2).
 */
export function closest(typed: string, candidates: readonly string[]): string | undefined {
  const prefix = candidates
    .filter((c) => typed.startsWith(c) || c.startsWith(typed))
    .sort((a, b) => Math.abs(a.length - typed.length) - Math.abs(b.length - typed.length));
  if (prefix.length > 0 && typed.length >= 3) return prefix[0];
  let best: { name: string; d: number } | undefined;
  for (const c of candidates) {
    const d = editDistance(typed, c);
    if (!best || d < best.d) best = { name: c, d };
  }
  return best && best.d <= Math.max(2, Math.floor(typed.length / 3)) ? best.name : undefined;
}
