// Lock-step pacing of the base and head runner processes of one round (runners/README.md,
// BEE_BENCH_PACE_FD). Both processes start together, but only one runs an iteration at a time:
// each announces `ready <unit> <step>` and waits for a byte. Base and head take turns in ABBA
// order at every step, so the two samples of a step are taken a few hundred milliseconds apart
// and the CPU-speed swings of a shared VM (tens of percent within seconds) land on both alike.
import { createInterface } from 'node:readline';
import type { Duplex } from 'node:stream';
import type { Side } from './side.js';

type State = { kind: 'starting' } | { kind: 'running' } | { kind: 'ready'; unit: number; step: number } | { kind: 'ended' };

interface Seat {
  state: State;
  channel?: Duplex;
}

/** How two announced positions compare: the one further behind goes first. */
function behind(a: { unit: number; step: number }, b: { unit: number; step: number }): number {
  return a.unit - b.unit || a.step - b.step;
}

export class Turns {
  private readonly seats: Record<Side, Seat> = { base: { state: { kind: 'starting' } }, head: { state: { kind: 'starting' } } };
  private ties = 0;

  private started = false;

  /**
   * `order`: who goes first at the first step where both are ready (then ABBA). `onFirstTurn`
   * runs once, just before the first turn is given: both sides are set up and waiting.
   */
  constructor(
    private readonly order: readonly [Side, Side],
    private readonly onFirstTurn?: () => void,
  ) {}

  /** Connects a side's end of its pacing channel; the channel closing means the process ended. */
  attach(side: Side, channel: Duplex): void {
    const seat = this.seats[side];
    seat.channel = channel;
    createInterface({ input: channel, crlfDelay: Infinity }).on('line', (line) => this.announce(side, line));
    // A write to a process that has just died fails; its 'close' settles the turn.
    channel.on('error', () => undefined);
    channel.on('close', () => this.ended(side));
  }

  /** The process of `side` is gone (also for a process that never opened its channel). */
  ended(side: Side): void {
    this.seats[side].state = { kind: 'ended' };
    this.next();
  }

  private announce(side: Side, line: string): void {
    const m = /^ready (\d+) (\d+)$/.exec(line.trim());
    // An unreadable line cannot be paced; treat it as ready at the very end so the run goes on.
    this.seats[side].state = m ? { kind: 'ready', unit: Number(m[1]), step: Number(m[2]) } : { kind: 'ready', unit: Infinity, step: 0 };
    this.next();
  }

  private next(): void {
    const [a, b] = this.order;
    const sa = this.seats[a].state;
    const sb = this.seats[b].state;
    // Someone is running or still starting up: their turn is not over.
    if (sa.kind === 'running' || sa.kind === 'starting' || sb.kind === 'running' || sb.kind === 'starting') return;
    if (sa.kind === 'ready' && sb.kind === 'ready') {
      const d = behind(sa, sb);
      if (d !== 0) return this.go(d < 0 ? a : b);
      // ABBA over the steps both reach together: a b, b a, a b, ...
      return this.go(this.ties++ % 2 === 0 ? a : b);
    }
    if (sa.kind === 'ready') return this.go(a);
    if (sb.kind === 'ready') return this.go(b);
  }

  private go(side: Side): void {
    if (!this.started) {
      this.started = true;
      this.onFirstTurn?.();
    }
    const seat = this.seats[side];
    seat.state = { kind: 'running' };
    seat.channel?.write('g');
  }
}
