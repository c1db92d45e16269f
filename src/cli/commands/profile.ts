// `bee-bench profile`: one CPU row's function profile, one side or base against head
// (src/pipeline/profile.ts); the lists on stdout, the files under --out's profiles/.
import { profileCommand } from '../../pipeline/profile.js';
import { caseAliases, currentId } from '../../spec/aliases.js';
import { loadSpec } from '../../spec/load.js';
import { common, log, oneRunner, source, UsageError, type Values } from '../flags.js';
import type { CliCommand } from '../command.js';
import { COMMON, SRC } from '../help-text.js';

export async function profile(v: Values): Promise<number> {
  const c = common(v);
  const runner = oneRunner(v, 'profile');
  if ((v.case?.length ?? 0) !== 1) throw new UsageError('profile needs exactly one --case ID');
  if (!v.head && !v.base) throw new UsageError('profile needs --head SRC (one side) or --base SRC --head SRC (the difference)');
  const out = await profileCommand({
    runner,
    specFile: c.specFile,
    size: c.size,
    caseId: currentId(caseAliases(loadSpec(c.specFile).spec), v.case![0]!), // a former id names the case (common() said so)
    ...(v.param ? { param: v.param } : {}),
    sides: { ...(v.base ? { base: source(v.base, 'base') } : {}), ...(v.head ? { head: source(v.head, 'head') } : {}) },
    labels: { base: v['base-label'] ?? v.base ?? 'base', head: v['head-label'] ?? v.head ?? 'head' },
    outDir: c.outDir,
    cacheDir: c.cacheDir,
    buildCommand: v['build-command'],
    log,
  });
  process.stdout.write(out.markdown);
  log(`wrote ${out.dir}`);
  return 0;
}

/** `bee-bench profile`: its help, its flags and what it runs. */
export const profileCli: CliCommand = {
  name: 'profile',
  usage: [
    'bee-bench profile --runner js|go|rs --case ID [--param LABEL] [--base SRC] --head SRC',
    '                  [--base-label L] [--head-label L] [--size quick|full] [--out DIR]',
  ],
  summary: "one CPU row's function profile under callgrind: one side, or where base and head differ",
  examples: [
    {
      what: 'where one row spends its instructions: bee-rs as released, one side',
      command: 'bee-bench profile --runner rs --case cpu.bmt.file-root --head registry',
    },
    {
      what: 'where a change moved it: the released bee-js against a checkout, function by function',
      command: 'bee-bench profile --runner js --case cpu.keccak.bulk --param quick --base registry --head ../bee-js',
    },
  ],
  details: `${SRC}
Counts the row alone under callgrind (valgrind needed) and writes DIR/profiles/<case>~<param>/:
callgrind.out.base/head (callgrind_annotate, KCachegrind), base/head.pb.gz (go tool pprof
-diff_base), base/head.folded (flame graphs) and, with both sides, diff.json and diff.html.
Prints the row's function lists (instructions under callgrind, not time). Defaults: --base none
(one side), --size quick, --out out.
${COMMON}`,
  fails: 'valgrind is missing, a build failed, or the row could not be counted',
  flags: ['spec', 'size', 'profile', 'case', 'out', 'cache', 'runner', 'base', 'head', 'base-label', 'head-label', 'param', 'build-command'],
  run: profile,
};
