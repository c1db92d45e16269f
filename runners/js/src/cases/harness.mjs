// cpu.harness.noop: an empty timed iteration, the harness's own per-iteration cost.
export function noop() {
  return { op() {} };
}
