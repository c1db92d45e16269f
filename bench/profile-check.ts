// The function profiles of an A/B, checked over every function (docs/profiles.md "Measured"):
// reads the three counting runs `bee-bench ab --measure instructions --keep-raw` kept in its
// --out folder (base, base again, head) and prints per counted row
//   - the row's count change and its A/A spread (base against base again, the verdict's statistic);
//   - A/A: the largest change of any function's own instructions, and of any client function's
//     folded cost, between the two base processes, as a share of the row;
//   - head against base: the first client function by folded change, the share of the row's
//     change the client's functions explain, and the share of the moved instructions under names
//     (not addresses).
//
//   - with --expect NAME (the client function a real change was made in): whether the first
//     client function is NAME with at least EXPECTED_SHARE of the row's change (docs/profiles.md,
//     "Caller context"), and the part of its change that is a proportional estimate.
//
//   npx tsx bench/profile-check.ts --runner js --out DIR [--profile quick] [--case GLOB]... [--same] [--expect NAME]
//
// --same: the A/B had one source on both sides, so its three processes are an A/A three times
// over; per row, the lines the comment's lists would hold (src/profile/diff.ts, with the second
// base process) under each of the six ways to take head, base and second base from them.
//
// Give the --profile and --case the A/B ran with: they rebuild its plan, whose units name the dumps.
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readDumps } from '../src/count/callgrind.js';
import { diffProfiles, profileOf } from '../src/profile/index.js';
import { loadSpec } from '../src/spec/load.js';
import { resolvePlan } from '../src/spec/plan.js';
import { RunSizeSchema, RunnerSchema } from '../src/spec/schema.js';
import { aaSpread } from '../src/verdict/steps.js';
import { aaOrderings, accountFor } from './lib/profile-account.js';

const { values } = parseArgs({
  options: {
    runner: { type: 'string', default: 'js' },
    out: { type: 'string' },
    profile: { type: 'string', default: 'quick' },
    case: { type: 'string', multiple: true, default: ['cpu.*'] },
    same: { type: 'boolean', default: false },
    expect: { type: 'string' },
  },
});
/** The bar of #40: the changed function first among the client's, with this share of the row's change. */
const EXPECTED_SHARE = 0.8;
const outDir = values.out;
if (!outDir) throw new Error('--out DIR: the folder of a `bee-bench ab --measure instructions --keep-raw` run');
const runner = RunnerSchema.parse(values.runner);
const { spec, hash } = loadSpec(resolve('spec/bench-spec.json'));
const plan = resolvePlan({ spec, specHash: hash, runner, profile: RunSizeSchema.parse(values.profile), cases: values.case });
const raw = (run: string) => ({ dir: join(resolve(outDir), 'counts', `raw-${run}`), plan });
const runs = { base: raw('base'), again: raw('baseAgain'), head: raw('head') };
const counts = { base: readDumps(runs.base.dir), again: readDumps(runs.again.dir) };

const pct = (x: number, of: number) => `${((100 * x) / of).toFixed(4)}%`;
console.log(
  '| row | change | A/A spread | A/A largest own-cost change | A/A largest folded change | first client function (share of change) | of it estimated | client functions explain | named |' +
    (values.expect ? ' expected first |' : ''),
);
console.log('|---|---:|---:|---|---|---|---:|---:|---:|' + (values.expect ? '---|' : ''));
for (const u of plan.units) {
  const row = { caseId: u.id, label: String(u.param.label) };
  const [base, again, head] = [runs.base, runs.again, runs.head].map((r) => profileOf(runner, r, row));
  const [b, a] = [counts.base.get(u.unit), counts.again.get(u.unit)];
  if (!base || !again || !head || !b || !a) continue;
  const spread = aaSpread(b, a);
  const aa = accountFor(base, again);
  const ab = accountFor(base, head);
  const first = ab.own[0];
  const change = head.total - base.total;
  console.log(
    [
      `\`${u.id}\``,
      pct(change, base.total),
      pct(spread * base.total, base.total),
      `\`${aa.largestSelf.name}\` ${pct(aa.largestSelf.change, base.total)}`,
      `\`${aa.largestOwn.name}\` ${pct(aa.largestOwn.change, base.total)}`,
      first ? `\`${first.name}\` (${pct(first.change, change)})` : '-',
      first && first.change !== 0 ? `${((100 * first.estimated) / first.change).toFixed(1)}%` : '-',
      `${(100 * ab.ownShare).toFixed(1)}%`,
      `${(100 * ab.namedShare).toFixed(4)}%`,
      ...(values.expect
        ? [
            first?.name === values.expect && change !== 0 && first.change / change >= EXPECTED_SHARE
              ? `met (\`${values.expect}\`)`
              : `MISSED (\`${values.expect}\`)`,
          ]
        : []),
    ]
      .join(' | ')
      .replace(/^/, '| ')
      .concat(' |'),
  );
}

if (values.same) {
  console.log('\n| row | A/A spreads (3 pairs) | lines listed over the 6 orderings |');
  console.log('|---|---|---:|');
  const headCounts = readDumps(runs.head.dir);
  for (const u of plan.units) {
    const row = { caseId: u.id, label: String(u.param.label) };
    const p = [runs.base, runs.again, runs.head].map((r) => profileOf(runner, r, row));
    const c = [counts.base.get(u.unit), counts.again.get(u.unit), headCounts.get(u.unit)];
    if (p.some((x) => !x) || c.some((x) => !x)) continue;
    const listed = aaOrderings([p[0]!, p[1]!, p[2]!]).reduce((n, [base, head, again]) => {
      const d = diffProfiles(base, head, row, again);
      return n + d.self.length + d.own.length + (d.allocations?.length ?? 0);
    }, 0);
    const spreads = [
      [0, 1],
      [0, 2],
      [1, 2],
    ].map(([x, y]) => pct(aaSpread(c[x!]!, c[y!]!), 1));
    console.log(`| \`${u.id}\` | ${spreads.join(', ')} | ${listed} |`);
  }
}
