// Console progress of `bee-bench run`: the runners print a case's start and its outcome in their
// own shapes (js on two lines, rs on one or after its iteration lines, go with "->"); this turns
// them into one line per finished case with done/total over the whole run and an ETA, and drops
// per-iteration lines. Any other line passes through unchanged.

const START = /^\[(js|go|rs)\] \[(\d+)\/(\d+)\] (\S+) (.*?) (?:\.\.\.|->)\s*(.*)$/;
const OUTCOME = /^(ok|skipped|failed|FAILED)\b[:,]?\s*(.*)$/;
const ITERATION = /^\[(js|go|rs)\]\s+iteration \d+\/\d+/;
const LINE = /^\[(js|go|rs)\]\s+(.*)$/;

export interface Progress {
  log(line: string): void;
  /** Cases finished so far. */
  done(): number;
}

/** A remaining time in whole seconds: "40 s", "3 min 05 s". */
export function clock(ms: number): string {
  const s = Math.max(1, Math.round(ms / 1000));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

/** A one-line summary of a runner's outcome text: "ok, median 73.5 ms", "skipped: <reason>". */
export function summarize(outcome: string): string | null {
  const m = OUTCOME.exec(outcome.trim());
  if (!m) return null;
  const status = m[1]!.toLowerCase();
  if (status !== 'ok') return `${status}: ${m[2]!.replace(/\s*\(\d+ samples kept\)$/, '')}`;
  const median = /median ([0-9.]+ ?[nµm]?s)\b/.exec(m[2]!);
  const n = /(\d+) (?:iterations|iters)/.exec(m[2]!);
  return `ok${median ? `, median ${median[1]!.replace(/([0-9])([nµm]?s)$/, '$1 $2')}` : ''}${n ? ` (${n[1]} iterations)` : ''}`;
}

/**
 * `total`: the (case, param) units of every runner in the run. `now` is injectable for tests.
 */
export function runProgress(total: number, log: (line: string) => void, now: () => number = () => performance.now()): Progress {
  let done = 0;
  // Time spent in cases, per runner from its first case on: a build between runners is not case time.
  const firstStart = new Map<string, number>();
  const spent = new Map<string, number>();
  // The case a runner announced and has not finished: [runner] -> "cpu.x quick".
  const open = new Map<string, string>();
  const finish = (runner: string, what: string, outcome: string) => {
    const summary = summarize(outcome);
    if (!summary) return false;
    done++;
    open.delete(runner);
    spent.set(runner, now() - (firstStart.get(runner) ?? now()));
    const elapsed = [...spent.values()].reduce((a, b) => a + b, 0);
    const eta = done < total && elapsed > 0 ? ` · ETA ${clock(((total - done) * elapsed) / done)}` : '';
    log(`[${done}/${total}] ${runner} ${what}: ${summary}${eta}`);
    return true;
  };
  return {
    done: () => done,
    log(line: string) {
      if (ITERATION.test(line)) return;
      const start = START.exec(line);
      if (start) {
        const [, runner, , , id, label, rest] = start;
        if (!firstStart.has(runner!)) firstStart.set(runner!, now());
        const what = `${id} ${label}`;
        if (rest && finish(runner!, what, rest)) return;
        open.set(runner!, what);
        return;
      }
      const plain = LINE.exec(line);
      if (plain && open.has(plain[1]!) && finish(plain[1]!, open.get(plain[1]!)!, plain[2]!)) return;
      log(line);
    },
  };
}
