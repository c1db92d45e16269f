// The patch set of #40 (docs/profiles.md, "The patch set"): real changes to each released client
// (bench/profile-patches.json), each put through an instruction A/B with its row profiled, and a
// report of where each one lands: flagged or not, the first client function and its share of the
// row's change, how much of that is split by proportion, and where the expected source line ranks
// among the moved lines the row's diff.json lists (bench/lib/profile-lines.ts), the profile
// stage's time against the counting stage's and the load average at the A/B's start and end.
//
//   npx tsx bench/profile-patches.ts --work DIR [--id ID]... [--runner go|rs|js] [--analyze]
//
// DIR (outside the repository) gets a patched copy of the client per change and the A/B's --out
// folder (`<id>/client`, `<id>/out`, `<id>/ab.log`); --analyze reads A/Bs already there again (a
// change to the folding needs no new counting). Clients: bee-go from BEE_GO_PATH (a checkout of
// the pinned release), bee-rs from cargo's registry source of the pinned crate, bee-js from the
// runner's installed package (its dependencies linked, built already: `--build-command true`).
// A/Bs run one at a time (each is three counting processes under valgrind).
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { abPipeline } from '../src/ab/run.js';
import { defaultSpecPath } from '../src/build/paths.js';
import { profileOf, rowFolder } from '../src/profile/index.js';
import { loadSpec } from '../src/spec/load.js';
import { resolvePlan } from '../src/spec/plan.js';
import { RunnerSchema, type Runner } from '../src/spec/schema.js';
import { AbRowSchema, type AbRow } from '../src/verdict/row.js';
import { lineLanding, readDiff } from './lib/profile-lines.js';
import { accountFor } from './lib/profile-account.js';

/** The bar of #40: the changed function first among the client's, with this share of the row's change. */
const EXPECTED_SHARE = 0.8;
const PATCHES_FILE = resolve('bench/profile-patches.json');

const EditSchema = z.object({ file: z.string().min(1), anchor: z.string().min(1), replacement: z.string() }).strict();
const PatchSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9-]+$/),
    runner: RunnerSchema,
    kind: z.enum(['loop', 'copy', 'callback', 'iterator', 'inlined']),
    row: z.string().min(1),
    what: z.string().min(1),
    edits: z.array(EditSchema).min(1),
    expect: z.object({ function: z.string().min(1), line: z.object({ file: z.string().min(1), text: z.string().min(1) }).strict() }).strict(),
  })
  .strict();
type Patch = z.infer<typeof PatchSchema>;
const PatchesSchema = z.object({ $comment: z.string(), patches: z.array(PatchSchema).min(1) }).strict();

const { values } = parseArgs({
  options: {
    work: { type: 'string' },
    id: { type: 'string', multiple: true, default: [] },
    runner: { type: 'string' },
    analyze: { type: 'boolean', default: false },
  },
});
if (!values.work) throw new Error('--work DIR: a folder outside the repository for the patched clients and the A/Bs');
const work = resolve(values.work);
if (`${work}/`.startsWith(`${resolve('.')}/`))
  throw new Error(`--work ${values.work}: inside the repository; give a folder outside it (the copies are whole clients)`);
const parsed = PatchesSchema.safeParse(JSON.parse(readFileSync(PATCHES_FILE, 'utf8')));
if (!parsed.success) throw new Error(`${PATCHES_FILE}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
const patches = parsed.data.patches.filter(
  (p) => (values.id.length === 0 || values.id.includes(p.id)) && (!values.runner || p.runner === RunnerSchema.parse(values.runner)),
);
if (patches.length === 0) throw new Error(`no patch of ${PATCHES_FILE} matches --id ${values.id.join(',')} --runner ${values.runner ?? ''}`);

const JS_MODULES = resolve('runners/js/node_modules');

/** The released client's source a change is made to. */
function releasedSource(runner: Runner): string {
  if (runner === 'go') {
    const p = process.env.BEE_GO_PATH;
    if (!p || !existsSync(p)) throw new Error('BEE_GO_PATH: set it to a checkout of the pinned bee-go (the runner builds the registry side from it too)');
    return p;
  }
  if (runner === 'js') {
    const p = join(JS_MODULES, '@ethersphere', 'bee-js');
    if (!existsSync(p)) throw new Error(`${p}: missing; run npm ci --prefix runners/js`);
    return p;
  }
  const version = /^bee-rs = "([^"]+)"$/m.exec(readFileSync(resolve('runners/rs/Cargo.toml'), 'utf8'))?.[1];
  const registry = join(process.env.CARGO_HOME ?? join(homedir(), '.cargo'), 'registry', 'src');
  const found = existsSync(registry)
    ? readdirSync(registry)
        .map((d) => join(registry, d, `bee-rs-${version}`))
        .find((d) => existsSync(d))
    : undefined;
  if (!found) throw new Error(`bee-rs ${version}: not in ${registry}; build the rs runner once (cargo fetches the crate there)`);
  return found;
}

/** A copy of the released client with the patch's edits; each anchor must occur exactly once. */
function patchedCopy(p: Patch, dir: string): string {
  rmSync(dir, { recursive: true, force: true });
  const from = releasedSource(p.runner);
  cpSync(from, dir, { recursive: true, filter: (src) => !/[/\\](?:target|node_modules|\.git)$/.test(src) });
  for (const e of p.edits) {
    const file = join(dir, e.file);
    const text = readFileSync(file, 'utf8');
    const at = text.indexOf(e.anchor);
    if (at === -1 || text.indexOf(e.anchor, at + 1) !== -1) {
      throw new Error(
        `${PATCHES_FILE}: ${p.id}: the anchor ${JSON.stringify(e.anchor.slice(0, 80))} occurs ${at === -1 ? 'nowhere' : 'more than once'} in ${e.file} of ${from}`,
      );
    }
    writeFileSync(file, text.slice(0, at) + e.replacement + text.slice(at + e.anchor.length));
  }
  if (p.runner === 'js') {
    mkdirSync(join(dir, 'node_modules'));
    for (const dep of readdirSync(JS_MODULES))
      if (!dep.startsWith('.') && dep !== '@ethersphere') symlinkSync(join(JS_MODULES, dep), join(dir, 'node_modules', dep));
  }
  return dir;
}

/** The 1-based line of `text` in the patched copy's file. */
function expectedLine(p: Patch, client: string): number {
  const lines = readFileSync(join(client, p.expect.line.file), 'utf8').split('\n');
  const i = lines.findIndex((l) => l.includes(p.expect.line.text));
  if (i === -1) throw new Error(`${PATCHES_FILE}: ${p.id}: expect.line.text is in no line of the patched ${p.expect.line.file}`);
  return i + 1;
}

async function runAb(p: Patch, client: string, outDir: string, logFile: string): Promise<void> {
  rmSync(outDir, { recursive: true, force: true });
  // The machine's load beside the figures: the profile stage's time moves with it several-fold.
  const load = () => loadavg()[0]!.toFixed(2);
  const log: string[] = [`load average (1 min) at start: ${load()}`];
  await abPipeline({
    specFile: defaultSpecPath(),
    size: 'quick',
    cases: [p.row],
    outDir,
    cacheDir: process.env.BEE_BENCH_CACHE ?? resolve('.bee-bench/cache'),
    log: (l) => log.push(l),
    runner: p.runner,
    // bee-go's release is built from its checkout (the module proxy may not serve it).
    base: p.runner === 'go' ? { kind: 'path', path: releasedSource('go') } : { kind: 'registry' },
    head: { kind: 'path', path: client },
    ...(p.runner === 'js' ? { buildCommand: 'true' } : {}),
    baseLabel: 'released',
    headLabel: p.id,
    rounds: 1,
    alpha: 0.05,
    threshold: 0.05,
    runBudgetMs: 1_800_000,
    measure: ['instructions'],
    keepRaw: true,
    // Listed whether or not the count flags it: a small real change is still placed.
    profileCases: [p.row],
  });
  log.push(`load average (1 min) at end: ${load()}`);
  writeFileSync(logFile, log.join('\n') + '\n');
}

interface Landing {
  id: string;
  runner: Runner;
  kind: Patch['kind'];
  change: number;
  flagged: string;
  first: string;
  share: number;
  estimated: number;
  met: boolean;
  line: string;
  profileMs: number | null;
  countMs: number | null;
  /** The 1-minute load average at the A/B's start and end (its log's first and last lines). */
  load: string;
}

function analyze(p: Patch, client: string, outDir: string, logFile: string): Landing {
  const { spec, hash } = loadSpec(defaultSpecPath());
  const plan = resolvePlan({ spec, specHash: hash, runner: p.runner, profile: 'quick', cases: [p.row] });
  const unit = plan.units.find((u) => u.id === p.row);
  if (!unit) throw new Error(`${p.id}: row ${p.row} is not in the quick plan of ${p.runner}`);
  const row = { caseId: p.row, label: String(unit.param.label) };
  const side = (run: string) => profileOf(p.runner, { dir: join(outDir, 'counts', `raw-${run}`), plan }, row);
  const [base, head] = [side('base'), side('head')];
  if (!base || !head) throw new Error(`${p.id}: ${outDir} holds no kept dumps of ${p.row} (run without --analyze)`);
  const ab = accountFor(base, head);
  const change = head.total - base.total;
  const first = ab.own[0];
  const share = first && change !== 0 ? first.change / change : 0;
  const abJson = z.object({ rows: z.array(AbRowSchema) }).parse(JSON.parse(readFileSync(join(outDir, 'ab.json'), 'utf8')));
  const verdict = countVerdict(abJson.rows.find((r) => r.caseId === p.row));
  const at = expectedLine(p, client);
  const lines = lineLanding(readDiff(join(outDir, 'profiles', rowFolder(row))), { file: p.expect.line.file, line: at, function: p.expect.function });
  const log = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
  const timing = /profiles: .* in (\d+) ms \((?:counting|its runs) took (\d+) ms\)/.exec(log);
  return {
    id: p.id,
    runner: p.runner,
    kind: p.kind,
    change: change / base.total,
    flagged: verdict,
    first: first?.name ?? '-',
    share,
    estimated: first && first.change !== 0 ? first.estimated / first.change : 0,
    // An inlined helper has no frame of its own: the first client function's top moved line names
    // it, by its line or its function (#40: "names the helper (or its source line) first").
    met: (first?.name === p.expect.function && share >= EXPECTED_SHARE) || (p.kind === 'inlined' && (lines.topIsExpected || lines.topNamesFunction)),
    line: lines.text,
    profileMs: timing ? Number(timing[1]) : null,
    countMs: timing ? Number(timing[2]) : null,
    load: ['start', 'end'].map((at) => new RegExp(`^load average \\(1 min\\) at ${at}: (\\S+)$`, 'm').exec(log)?.[1] ?? '?').join(' → '),
  };
}

/** The row's instruction-count verdict in ab.json (`evidence.instructions.judged.verdict`), '?' when it has none. */
function countVerdict(row: AbRow | undefined): string {
  const instructions = row?.evidence.instructions;
  const verdict = instructions && 'judged' in instructions ? instructions.judged?.verdict : undefined;
  return verdict === undefined ? '?' : verdict === '~' ? 'no' : `yes (${verdict})`;
}

const pct = (x: number) => `${(100 * x).toFixed(2)}%`;
const landings: Landing[] = [];
for (const p of patches) {
  const dir = join(work, p.id);
  const client = join(dir, 'client');
  const outDir = join(dir, 'out');
  const logFile = join(dir, 'ab.log');
  if (!values.analyze) {
    patchedCopy(p, client);
    process.stderr.write(`${p.id}: A/B of ${p.row} (${p.what})\n`);
    await runAb(p, client, outDir, logFile);
  }
  const l = analyze(p, client, outDir, logFile);
  landings.push(l);
  process.stderr.write(`${p.id}: ${JSON.stringify(l)}\n`);
}
writeFileSync(join(work, 'landings.json'), JSON.stringify(landings, null, 2) + '\n');
console.log(
  "| change | kind | row change | flagged | first client function (share of the row's change) | of it by proportion | expected first | expected line | profiles / counting | load |",
);
console.log('|---|---|---:|---|---|---:|---|---|---:|---:|');
for (const l of landings) {
  const p = patches.find((x) => x.id === l.id)!;
  const time =
    l.profileMs !== null && l.countMs ? `${(l.profileMs / 1000).toFixed(1)} s / ${(l.countMs / 1000).toFixed(1)} s (${pct(l.profileMs / l.countMs)})` : '-';
  console.log(
    `| \`${l.id}\` | ${l.kind} | ${l.change >= 0 ? '+' : ''}${pct(l.change)} | ${l.flagged} | \`${l.first}\` (${pct(l.share)}) | ${pct(l.estimated)} | ${l.met ? 'met' : `MISSED (\`${p.expect.function}\`)`} | ${l.line} | ${time} | ${l.load} |`,
  );
}
