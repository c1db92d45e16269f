// Benchmark of the PR verdict path: 100 rows x 20 paired rounds through
// pairedRounds.compare (signed-rank p, HL ratio and interval) and judgeWall
// (BH + thresholds). Bar: < 50 ms per table. Run: npx tsx bench/stats.bench.ts
import { performance } from 'node:perf_hooks';
import { pairedRounds } from '../src/stats/index.js';
import { judgeWall } from '../src/verdict/index.js';

const ROWS = 100;
const ROUNDS = 20;
const BAR_MS = 50;
const REPEATS = 30;

// Seeded data so the figure is comparable across runs: a few rows carry a real shift.
let seed = 0x9e3779b9;
const uniform = () => {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const normal = () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
const table = Array.from({ length: ROWS }, (_, r) => {
  const shift = r % 10 === 0 ? 1.08 : 1;
  const base: number[] = [];
  const head: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const level = 1e5 * (1 + r) * Math.exp(0.03 * normal());
    base.push(level * Math.exp(0.02 * normal()));
    head.push(level * shift * Math.exp(0.02 * normal()));
  }
  return { id: `case-${r}`, base, head };
});

function run(): number {
  const t0 = performance.now();
  const rows = table.map((t) => ({ id: t.id, ...pairedRounds.compare(t.base, t.head) }));
  const out = judgeWall(rows, { alpha: 0.05, threshold: 0.05 });
  const ms = performance.now() - t0;
  if (out.length !== ROWS) throw new Error('lost rows');
  return ms;
}

const cold = run();
const times = Array.from({ length: REPEATS }, run).sort((a, b) => a - b);
const median = times[Math.floor(REPEATS / 2)] as number;
const worst = times[REPEATS - 1] as number;
const flagged = judgeWall(
  table.map((t) => pairedRounds.compare(t.base, t.head)),
  { alpha: 0.05, threshold: 0.05 },
).filter((v) => v.verdict !== '~').length;
console.log(
  `stats verdicts: ${ROWS} rows x ${ROUNDS} rounds: median ${median.toFixed(2)} ms, ` +
    `worst ${worst.toFixed(2)} ms, cold ${cold.toFixed(2)} ms (bar < ${BAR_MS} ms); ${flagged} rows flagged`,
);
if (worst >= BAR_MS) process.exitCode = 1;
