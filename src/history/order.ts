// The orderings every derived file uses, in one place, so output never depends on input order.
import { RUNNERS, type Runner } from '../spec/schema.js';

export const RUNNER_ORDER: readonly Runner[] = RUNNERS;

/** Code-unit order (locale-independent). */
export function byString(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function byRunner(a: Runner, b: Runner): number {
  return RUNNER_ORDER.indexOf(a) - RUNNER_ORDER.indexOf(b);
}

/** Epoch ms of an ISO timestamp with offset (records are validated, so this is never NaN there). */
export function timeOf(iso: string): number {
  return Date.parse(iso);
}
