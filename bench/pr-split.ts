// The makespan of a PR's A/B measured as parallel jobs (docs/evidence.md): each piece of the split
// run for real, one after another, each timed; the critical path is the longest piece plus the
// merge (the pieces run side by side as a matrix). With --single, the same A/B in one job too.
//
//   npx tsx bench/pr-split.ts --runner js [--base registry] [--head registry] [--size quick]
//        [--measure wall,instructions,allocations] [--split 3] [--case GLOB...] [--single]
//        [--out bench/out/pr-split]
// Builds are warm: base and head are built (or found in the cache) before any timing.
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { main } from '../src/cli.js';
import { MeasureSchema } from '../src/spec/measure.js';
import { piecesOfSplit, pieceText } from '../src/ab/pieces.js';

const { values } = parseArgs({
  options: {
    runner: { type: 'string', default: 'js' },
    base: { type: 'string', default: 'registry' },
    head: { type: 'string', default: 'registry' },
    size: { type: 'string', default: 'quick' },
    measure: { type: 'string', default: 'wall,instructions,allocations' },
    split: { type: 'string', default: '3' },
    case: { type: 'string', multiple: true, default: [] },
    single: { type: 'boolean', default: false },
    out: { type: 'string', default: 'bench/out/pr-split' },
  },
});
const out = resolve(values.out);
const measure = MeasureSchema.parse(values.measure);
const split = Number(values.split);
const common = [
  '--runner',
  values.runner,
  '--base',
  values.base,
  '--head',
  values.head,
  '--size',
  values.size,
  '--measure',
  values.measure,
  ...values.case.flatMap((c) => ['--case', c]),
];

async function timed(name: string, args: string[]): Promise<{ name: string; seconds: number; code: number }> {
  const started = performance.now();
  const code = await main(args);
  const seconds = (performance.now() - started) / 1000;
  process.stderr.write(`${name}: ${seconds.toFixed(0)} s (exit ${code})\n`);
  return { name, seconds, code };
}

// Warm builds: the pieces then take them with --prebuilt, as from a build job's artifact.
await timed('warm-up build', ['ab', ...common, '--measure', 'allocations', '--case', 'cpu.harness.noop', '--out', join(out, 'warm')]);
const pieces = [];
for (const p of piecesOfSplit(measure, Object.fromEntries(measure.filter((k) => k !== 'wall').map((k) => [k, split])))) {
  const dir = join(out, `piece-${pieceText(p).replace(/[:/]/g, '-')}`);
  pieces.push({ ...(await timed(pieceText(p), ['ab', ...common, '--piece', pieceText(p), '--split', String(split), '--prebuilt', '--out', dir])), dir });
}
const merge = await timed('merge', ['merge', '--out', join(out, 'merged'), ...pieces.map((p) => p.dir)]);
const single = values.single ? await timed('single job', ['ab', ...common, '--prebuilt', '--out', join(out, 'single')]) : null;
const longest = Math.max(...pieces.map((p) => p.seconds));
const summary = {
  runner: values.runner,
  profile: values.size,
  measure: values.measure,
  split,
  pieces: pieces.map(({ name, seconds, code }) => ({ name, seconds: Math.round(seconds), code })),
  mergeSeconds: Math.round(merge.seconds),
  criticalPathSeconds: Math.round(longest + merge.seconds),
  sumOfPiecesSeconds: Math.round(pieces.reduce((s, p) => s + p.seconds, 0)),
  singleJobSeconds: single ? Math.round(single.seconds) : null,
};
writeFileSync(join(out, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
console.log(JSON.stringify(summary, null, 2));
