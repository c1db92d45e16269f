// Shared test helpers (not a test file).
import { expect } from 'vitest';

/** |a - b| <= rel * |b| (+ a tiny absolute floor for values at 0). */
export function expectClose(actual: number, expected: number, rel = 1e-9): void {
  const tol = rel * Math.abs(expected) + 1e-15;
  if (!(Math.abs(actual - expected) <= tol)) {
    expect.fail(`expected ${actual} to be within ${tol} of ${expected}`);
  }
}
