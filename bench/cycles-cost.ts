// The cost of the cycles evidence over plain instruction counting (docs/evidence.md "Estimated
// cycles"): one runner build, one counting process without and one with callgrind's cache
// simulation over the same CPU cases, started together so that both see the same machine load
// (two valgrind processes at a time), repeated `--rounds` times; prints each pair's seconds and
// the ratio cache-sim / plain. The counts of both processes must agree (Ir does not depend on
// the cache simulation), which it checks.
//
//   npx tsx bench/cycles-cost.ts --runner rs|go|js [--source registry|PATH] [--case 'cpu.*'] [--rounds 1] [--out bench/out]
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildRunner, parseSource } from '../src/build/index.js';
import { defaultSpecPath } from '../src/build/paths.js';
import { findCounter } from '../src/count/callgrind.js';
import { processBudgetMs } from '../src/pipeline/options.js';
import { countRunner, isCounted } from '../src/run/count.js';
import { loadSpec } from '../src/spec/load.js';
import { planOf, resolvePlan } from '../src/spec/plan.js';
import { RunnerSchema } from '../src/spec/schema.js';

const { values } = parseArgs({
  options: {
    runner: { type: 'string', default: 'rs' },
    source: { type: 'string', default: 'registry' },
    case: { type: 'string', multiple: true, default: ['cpu.*'] },
    rounds: { type: 'string', default: '1' },
    out: { type: 'string', default: 'bench/out' },
  },
});
const runner = RunnerSchema.parse(values.runner);
const found = await findCounter();
if (!found.counter) throw new Error(found.reason);
const counter = found.counter;
const { spec, hash } = loadSpec(defaultSpecPath());
const plan = planOf(resolvePlan({ spec, specHash: hash, runner, profile: 'quick', cases: values.case }), isCounted);
const { command } = await buildRunner({ runner, source: parseSource(values.source), log: (l) => console.error(l) });
const dir = join(values.out, `cycles-cost-${runner}`);
mkdirSync(dir, { recursive: true });

const timed = async (name: string, cacheSim: boolean) => {
  const t = performance.now();
  const run = await countRunner(command, { runner, plan, counter, out: join(dir, `${name}.json`), timeoutMs: processBudgetMs(plan), cacheSim });
  if (run.problems.length > 0) throw new Error(`${name}: ${run.problems.join('; ')}`);
  return { seconds: (performance.now() - t) / 1000, result: run.result! };
};

const pairs = [];
for (let r = 0; r < Number(values.rounds); r++) {
  const [plain, cached] = await Promise.all([timed(`plain-${r}`, false), timed(`cache-sim-${r}`, true)]);
  // The same instructions either way, row by row, to the spread counts show between processes.
  const irOf = (c: (typeof plain.result.cases)[number]) => c.instructions?.at(-1) ?? 0;
  const irApart = Math.max(...plain.result.cases.map((c, i) => Math.abs(irOf(c) / irOf(cached.result.cases[i]!) - 1)));
  pairs.push({ plain_s: plain.seconds, cache_sim_s: cached.seconds, ratio: cached.seconds / plain.seconds, max_ir_apart: irApart });
}
console.log(JSON.stringify({ runner, client: values.source, cases: plan.units.length, pairs }, null, 2));
