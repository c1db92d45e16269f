// The lock-step scheduler of base and head, against fake pacing channels: who gets the byte when.
import { Duplex } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Side } from '../../src/run/side.js';
import { Turns } from '../../src/run/turns.js';

/** Our end of a runner's channel: records each turn given, lets the test speak for the runner. */
class FakeRunner extends Duplex {
  turns = 0;
  constructor(
    private readonly log: string[],
    readonly side: Side,
  ) {
    super();
  }
  override _read(): void {}
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    expect(chunk.toString()).toBe('g');
    this.turns++;
    this.log.push(this.side);
    done();
  }
  ready(unit: number, step: number): void {
    this.push(`ready ${unit} ${step}\n`);
  }
}

const tick = () => new Promise((r) => setImmediate(r));

function seated(order: [Side, Side], onFirstTurn?: (log: string[]) => void) {
  const log: string[] = [];
  const turns = new Turns(order, onFirstTurn && (() => onFirstTurn(log)));
  const base = new FakeRunner(log, 'base');
  const head = new FakeRunner(log, 'head');
  turns.attach('base', base);
  turns.attach('head', head);
  return { log, turns, base, head };
}

describe('Turns', () => {
  it('waits for both to start, then alternates ABBA over the steps both reach', async () => {
    const { log, base, head } = seated(['base', 'head']);
    base.ready(0, 0);
    await tick();
    expect(log).toEqual([]); // head is still starting: base must not run alone
    head.ready(0, 0);
    await tick();
    for (let step = 1; step <= 3; step++) {
      // Whoever runs now announces its next step; the other then runs; then the next tie.
      for (let k = 0; k < 2; k++) {
        const running = log.at(-1) === 'base' ? base : head;
        running.ready(0, step);
        await tick();
      }
    }
    expect(log.join(' ')).toBe('base head head base base head head');
  });

  it('runs onFirstTurn once, when both are set up, before the first byte', async () => {
    const { log, base, head } = seated(['base', 'head'], (l) => l.push('first turn'));
    base.ready(0, 0);
    await tick();
    expect(log).toEqual([]);
    head.ready(0, 0);
    await tick();
    base.ready(0, 1);
    await tick();
    expect(log).toEqual(['first turn', 'base', 'head']);
  });

  it('starts with head when the round order says so', async () => {
    const { log, base, head } = seated(['head', 'base']);
    head.ready(0, 0);
    base.ready(0, 0);
    await tick();
    expect(log).toEqual(['head']);
  });

  it('never runs both at once: a side that is ready waits while the other runs', async () => {
    const { log, base, head } = seated(['base', 'head']);
    base.ready(0, 0);
    head.ready(0, 0);
    await tick();
    expect(log).toEqual(['base']);
    // base is running; head announcing again changes nothing until base is back
    await tick();
    expect(log).toEqual(['base']);
    base.ready(0, 1);
    await tick();
    expect(log).toEqual(['base', 'head']);
  });

  it('lets the side that is behind catch up (the other skipped a param)', async () => {
    const { log, base, head } = seated(['base', 'head']);
    base.ready(1, 0); // base failed unit 0 and moved on
    head.ready(0, 3);
    await tick();
    expect(log).toEqual(['head']);
    head.ready(0, 4);
    await tick();
    expect(log).toEqual(['head', 'head']);
  });

  it('runs the survivor freely once the other process has ended', async () => {
    const { log, turns, base } = seated(['base', 'head']);
    base.ready(0, 0);
    turns.ended('head');
    await tick();
    base.ready(0, 1);
    await tick();
    expect(log).toEqual(['base', 'base']);
  });

  it('treats a closed channel as the end of that process', async () => {
    const { log, base, head } = seated(['base', 'head']);
    base.ready(0, 0);
    head.destroy();
    await tick();
    expect(log).toEqual(['base']);
  });
});
