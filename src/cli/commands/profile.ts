// `bee-bench profile`: one CPU row's function profile, one side or base against head
// (src/pipeline/profile.ts); the lists on stdout, the files under --out's profiles/.
import { profileCommand } from '../../pipeline/profile.js';
import { caseAliases, currentId } from '../../spec/aliases.js';
import { loadSpec } from '../../spec/load.js';
import { common, log, oneRunner, source, UsageError, type Values } from '../flags.js';

export async function profile(v: Values): Promise<number> {
  const c = common(v);
  const runner = oneRunner(v, 'profile');
  if ((v.case?.length ?? 0) !== 1) throw new UsageError('profile needs exactly one --case ID');
  if (!v.head && !v.base) throw new UsageError('profile needs --head SRC (one side) or --base SRC --head SRC (the difference)');
  const out = await profileCommand({
    runner,
    specFile: c.specFile,
    profile: c.profile,
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
