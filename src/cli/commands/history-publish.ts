// `bee-bench history publish RESULT...`: result files appended as records to a history branch.
import { publishResults } from '../../history/index.js';
import { redact } from '../../history/git.js';
import { loadResult } from '../../spec/load.js';
import { headContext, historyTarget } from '../history-target.js';
import { log, UsageError, type Values } from '../flags.js';
import { resultFiles } from '../results.js';

export async function historyPublish(v: Values, paths: string[]): Promise<number> {
  if (paths.length === 0) throw new UsageError('history publish needs result files or folders');
  const results = resultFiles(paths).map(loadResult);
  const target = historyTarget(v);
  const report = await publishResults(results, headContext(v), target);
  log(
    `history: ${report.added.length} record(s) added, ${report.present.length} already present, commit ${report.commit ?? '(none)'} after ${report.attempts} attempt(s)`,
  );
  for (const bad of report.invalid) log(`history: invalid record kept as is: ${bad.file}: ${bad.problem}`);
  // The next step: see it.
  const branch = target.branch ?? 'gh-pages';
  const options = `${branch === 'gh-pages' ? '' : ` --history-branch ${branch}`}${target.folder && target.folder !== 'bench' ? ` --folder ${target.folder}` : ''}`;
  log(`next: npx bee-bench site --remote ${redact(target.remote)}${options} (the trend site over branch ${branch}; on GitHub, Pages can serve that branch)`);
  return 0;
}
