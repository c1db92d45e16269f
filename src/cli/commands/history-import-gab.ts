// `bee-bench history import-gab FILE`: github-action-benchmark data imported into a history branch.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { importGab, publishRecords } from '../../history/index.js';
import { RunnerSchema } from '../../spec/schema.js';
import { caseAliases } from '../../spec/aliases.js';
import { HISTORY_FLAGS, historyTarget } from '../history-target.js';
import { log, UsageError, type Values } from '../flags.js';
import type { CliCommand } from '../command.js';
import { HISTORY } from '../help-text.js';

export async function historyImportGab(v: Values, paths: string[]): Promise<number> {
  if (paths.length !== 1) throw new UsageError('history import-gab needs one data.js or JSON file');
  const runner = v.runner?.[0] === undefined ? undefined : RunnerSchema.safeParse(v.runner[0]);
  if (runner && !runner.success) throw new UsageError(`--runner ${v.runner?.[0]}: use js, go or rs`);
  const file = resolve(paths[0]!);
  const target = historyTarget(v);
  // Benches named by a renamed case's former id join the case's series (the spec's formerly).
  const imported = importGab(file, readFileSync(file, 'utf8'), { runner: runner?.data, branch: v.ref ?? 'main', aliases: caseAliases(target.spec) });
  for (const s of imported.skipped) log(`history: not charted: ${s.where} "${s.name}": ${s.reason}`);
  if (imported.charted === 0) {
    log(`history: ${file}: no bench has a time to chart (${imported.skipped.length} without one); nothing imported`);
    return 1;
  }
  const report = await publishRecords(imported.records, target);
  log(
    `history: imported ${report.added.length} record(s), ${imported.charted} bench(es) charted, ${imported.skipped.length} stored without a time; commit ${report.commit ?? '(none)'}`,
  );
  return 0;
}

/** `bee-bench history import-gab`: its help, its flags and what it runs. */
export const historyImportGabCli: CliCommand = {
  name: 'history import-gab',
  usage: [
    'bee-bench history import-gab --remote URL|PATH [--runner js|go|rs] [--ref BRANCH] [--default-branch NAME] [--max-runs N] [--spec FILE] [--workdir DIR] DATA.js|JSON',
  ],
  summary: 'import a github-action-benchmark data.js into the history',
  details: `${HISTORY}
Defaults: --history-branch gh-pages, --folder bench, --ref the current branch.`,
  fails: 'no bench of the file has a time (nothing is committed), or the history could not be written',
  flags: [...HISTORY_FLAGS, 'runner', 'ref'],
  run: historyImportGab,
};
