// The run order of an experiment's units, reproducible from the run's recorded seed. "blocked"
// (the default): block r holds replicate r of every cell on every node; the cells are shuffled
// within the block and each cell's nodes follow one another in a shuffled order, so the releases
// measured side by side see the same minutes. "sequential": cells in design order, nodes in turn.
import { createHash } from 'node:crypto';
import { cellsOf, unitKey, type Cell } from './design.js';
import type { Design } from './schema.js';

export interface Unit extends Cell {
  /** Its key: cell, node, replicate ("1000-L2-DATA@a#3"). */
  key: string;
  node: string;
  release: string;
  /** 1-based. */
  rep: number;
  /** Its position in the run order (0-based). */
  index: number;
}

/** A stream of uniform 32-bit integers: SHA-256(seed ‖ label ‖ u64be(counter)), eight per block. */
export function seededInts(seedHex: string, label: string): () => number {
  const seed = Buffer.from(seedHex, 'hex');
  let counter = 0n;
  let block: Buffer = Buffer.alloc(0);
  let at = 0;
  return () => {
    if (at >= block.length) {
      const c = Buffer.alloc(8);
      c.writeBigUInt64BE(counter++);
      block = createHash('sha256').update(seed).update(label, 'utf8').update(c).digest();
      at = 0;
    }
    const v = block.readUInt32BE(at);
    at += 4;
    return v;
  };
}

/** Fisher–Yates with an unbiased draw (rejection of the uneven top of the 32-bit range). */
export function shuffle<T>(items: readonly T[], next: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const n = i + 1;
    const limit = Math.floor(2 ** 32 / n) * n;
    let r = next();
    while (r >= limit) r = next();
    const j = r % n;
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Every unit of the design, in run order. */
export function runOrder(d: Design, seedHex: string): Unit[] {
  const cells = cellsOf(d);
  const units: Unit[] = [];
  for (let rep = 1; rep <= d.replicates; rep++) {
    const next = seededInts(seedHex, `order/block ${rep}`);
    const blockCells = d.order === 'sequential' ? cells : shuffle(cells, next);
    for (const cell of blockCells) {
      const nodes = d.order === 'sequential' ? d.nodes : shuffle(d.nodes, next);
      for (const n of nodes) units.push({ ...cell, key: unitKey(cell, n.label, rep), node: n.label, release: n.release, rep, index: units.length });
    }
  }
  return units;
}
