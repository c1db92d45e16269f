// Console progress of `bee-bench run`. A run is a row of steps per runner: its build (when not
// cached), its wall-time cases, and its counting and allocation runs when asked; each has an
// estimate (src/cli/eta.ts). The runners print a case's start and its outcome in their own shapes
// (js on two lines, rs on one or after its iteration lines, go with "->"); this turns them into one
// line per finished case with done/total over the whole run and an ETA over every step left,
// drops per-iteration lines, and gives a step that runs long without a line (a cold cargo build)
// a heartbeat. Any other line passes through unchanged.
import { VIEW_LIST, VIEWS } from '../evidence/views.js';
import { formatDuration } from '../report/units.js';
import { DETERMINISTIC, WALL_KIND, type MeasureKind } from '../spec/measure.js';
import type { Runner } from '../spec/schema.js';

const NS_PER = { ns: 1, µs: 1e3, ms: 1e6, s: 1e9 } as const;

const START = /^\[(js|go|rs)\] \[(\d+)\/(\d+)\] (\S+) (.*?) (?:\.\.\.|->)\s*(.*)$/;
const OUTCOME = /^(ok|skipped|failed|FAILED)\b[:,]?\s*(.*)$/;
// rs and js indent an iteration line; go repeats the case's head before it (a slow iteration only).
const ITERATION = /^\[(js|go|rs)\]\s+(?:\[\d+\/\d+\] \S+ .*?\s)?iteration \d+\/\d+/;
const LINE = /^\[(js|go|rs)\]\s+(.*)$/;
// buildRunner's lines (src/build/index.ts) and the pipeline's per-stage prefixes (src/pipeline/single.ts).
const BUILD_START = /^(js|go|rs): building /;
const BUILD_END = /^(js|go|rs): (?:built |build cache hit|build failed)/;
// A deterministic evidence's run prefixes its lines with its kind (src/evidence/run.ts): "[js instructions] ...".
const STAGE_LINE = new RegExp(`^\\[(js|go|rs) (${DETERMINISTIC.join('|')})\\] `);
// An evidence that cannot run here says so by its label: "js: instructions skipped: no valgrind".
const SKIPPED = new RegExp(`^(js|go|rs): (${VIEW_LIST.map((v) => v.label).join('|')}) skipped`);

/** A step longer than this without a line gets a heartbeat line. */
export const HEARTBEAT_MS = 10_000;

/** A runner's build, or the runs of one evidence (wall time: its cases, one line each). */
export type StageKind = 'build' | MeasureKind;

export interface Stage {
  runner: Runner;
  kind: StageKind;
  /** Units of work (cases × params) the stage runs; 1 for a build. */
  units: number;
  /** Expected duration, ms (0: nothing to do, a cached build). */
  estimateMs: number;
}

/** What a finished stage took per unit, for the next run's estimate. */
export interface StageTiming {
  runner: Runner;
  kind: StageKind;
  msPerUnit: number;
}

export interface Progress {
  log(line: string): void;
  /** Prints a heartbeat when the current step has been silent for HEARTBEAT_MS; call it every few seconds. */
  beat(): void;
  /** Cases finished so far. */
  done(): number;
  /** ms to the end of the run as now estimated. */
  etaMs(): number;
  /** Ends the run's timekeeping: what each step that ran took per unit. */
  finish(): StageTiming[];
}

/** A time in whole seconds: "40 s", "3 min 05 s". */
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
  const median = /median ([0-9.]+) ?([nµm]?s)\b/.exec(m[2]!);
  const n = /(\d+) (?:iterations|iters)/.exec(m[2]!);
  // Each runner prints its own precision ("0.0002 ms", "0.000 ms", "30 ns"): one format for all.
  const ns = median ? Number(median[1]) * NS_PER[median[2] as keyof typeof NS_PER] : undefined;
  // A zero is a figure rounded away by the runner's print ("0.000 ms"), not a free operation.
  const shown =
    ns === undefined
      ? ''
      : `, median ${ns === 0 ? `< ${formatDuration(0.5 * 10 ** -(median![1]!.split('.')[1]?.length ?? 0) * NS_PER[median![2] as keyof typeof NS_PER])}` : formatDuration(ns)}`;
  return `ok${shown}${n ? ` (${n[1]} iterations)` : ''}`;
}

interface StageState extends Stage {
  startedAt?: number;
  endedAt?: number;
  unitsDone: number;
}

const stageWords = (k: StageKind): string => (k === 'build' ? 'building' : `measuring ${VIEWS[k].label}`);

/** `stages`: every step of the run in order (src/cli/eta.ts). `now` is injectable for tests. */
export function runProgress(stages: readonly Stage[], log: (line: string) => void, now: () => number = () => performance.now()): Progress {
  const states: StageState[] = stages.map((s) => ({ ...s, unitsDone: 0 }));
  const total = stages.filter((s) => s.kind === WALL_KIND).reduce((n, s) => n + s.units, 0);
  let done = 0;
  let lastOut = now();
  const out = (line: string) => {
    lastOut = now();
    log(line);
  };
  // The case a runner announced and has not finished: [runner] -> "cpu.x quick", and since when.
  const open = new Map<string, { what: string; at: number }>();
  const stageOf = (runner: string, kind: StageKind) => states.find((s) => s.runner === runner && s.kind === kind);
  /** The stage starts (once); the runner's earlier stages are over. */
  const enter = (runner: string, kind: StageKind) => {
    const s = stageOf(runner, kind);
    if (!s || s.startedAt !== undefined) return;
    const t = now();
    for (const e of states) if (e.startedAt !== undefined && e.endedAt === undefined) e.endedAt = t;
    s.startedAt = t;
  };
  const end = (runner: string, kind: StageKind) => {
    const s = stageOf(runner, kind);
    if (s && s.endedAt === undefined) s.endedAt = now();
  };
  const current = () => states.find((s) => s.startedAt !== undefined && s.endedAt === undefined);
  const remainingMs = (s: StageState) => {
    if (s.endedAt !== undefined) return 0;
    if (s.startedAt === undefined) return s.estimateMs;
    const elapsed = now() - s.startedAt;
    if (s.kind === WALL_KIND && s.unitsDone > 0) return ((s.units - s.unitsDone) * elapsed) / s.unitsDone;
    return Math.max(0, s.estimateMs - elapsed);
  };
  const etaMs = () => states.reduce((ms, s) => ms + remainingMs(s), 0);
  const eta = () => (etaMs() >= 500 ? ` · ETA ${clock(etaMs())}` : '');

  const finish = (runner: string, what: string, outcome: string) => {
    const summary = summarize(outcome);
    if (!summary) return false;
    done++;
    open.delete(runner);
    const s = stageOf(runner, WALL_KIND);
    if (s) s.unitsDone++;
    out(`[${done}/${total}] ${runner} ${what}: ${summary}${eta()}`);
    return true;
  };
  return {
    done: () => done,
    etaMs,
    log(line: string) {
      if (ITERATION.test(line)) return;
      const build = BUILD_START.exec(line);
      if (build) {
        enter(build[1]!, 'build');
        out(`${line}${eta()}`);
        return;
      }
      const built = BUILD_END.exec(line);
      if (built) {
        end(built[1]!, 'build');
        // A failed build ends the runner: its other steps will not run.
        if (line.startsWith(`${built[1]}: build failed`))
          for (const s of states) if (s.runner === built[1] && s.startedAt === undefined) s.startedAt = s.endedAt = now();
        out(line);
        return;
      }
      const stage = STAGE_LINE.exec(line);
      if (stage) enter(stage[1]!, stage[2] as MeasureKind);
      const skipped = SKIPPED.exec(line);
      if (skipped) {
        const s = stageOf(skipped[1]!, VIEW_LIST.find((v) => v.label === skipped[2])!.kind);
        if (s) s.startedAt = s.endedAt = now();
      }
      const start = START.exec(line);
      if (start) {
        const [, runner, , , id, label, rest] = start;
        enter(runner!, WALL_KIND);
        const what = `${id} ${label}`;
        if (rest && finish(runner!, what, rest)) return;
        if (open.get(runner!)?.what !== what) open.set(runner!, { what, at: now() });
        return;
      }
      const plain = LINE.exec(line);
      if (plain) enter(plain[1]!, WALL_KIND);
      if (plain && open.has(plain[1]!) && finish(plain[1]!, open.get(plain[1]!)!.what, plain[2]!)) return;
      out(line);
    },
    beat() {
      const s = current();
      if (!s || now() - lastOut < HEARTBEAT_MS) return;
      const running = s.kind === WALL_KIND ? open.get(s.runner) : undefined;
      const elapsed = now() - (running?.at ?? s.startedAt!);
      const doing = running ? `running ${running.what}` : stageWords(s.kind);
      const over = s.kind !== WALL_KIND && elapsed > s.estimateMs && s.estimateMs > 0 ? `, over its estimate of ${clock(s.estimateMs)}` : '';
      out(`${s.runner}: ${doing}, ${clock(elapsed)} so far${over}${eta()}`);
    },
    finish() {
      const t = now();
      for (const s of states) if (s.startedAt !== undefined && s.endedAt === undefined) s.endedAt = t;
      return states
        .filter((s) => s.startedAt !== undefined && s.endedAt! > s.startedAt && (s.kind !== WALL_KIND || s.unitsDone === s.units))
        .map((s) => ({ runner: s.runner, kind: s.kind, msPerUnit: (s.endedAt! - s.startedAt!) / s.units }));
    },
  };
}
