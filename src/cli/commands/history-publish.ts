// `bee-bench history publish RESULT...`: result files appended as records to a history branch.
import { publishResults } from '../../history/index.js';
import { redact } from '../../history/git.js';
import { loadResult } from '../../spec/load.js';
import { headContext, HISTORY_FLAGS, historyTarget, RECORD_CONTEXT_FLAGS } from '../history-target.js';
import { log, UsageError, type Values } from '../flags.js';
import { resultFiles } from '../results.js';
import type { CliCommand } from '../command.js';
import { HISTORY } from '../help-text.js';

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

/** `bee-bench history publish`: its help, its flags and what it runs. */
export const historyPublishCli: CliCommand = {
  name: 'history publish',
  usage: [
    'bee-bench history publish    --remote URL|PATH [--history-branch gh-pages] [--folder bench]',
    '                             [--max-runs N] [--default-branch NAME] [--repo DIR] [--event E] [--run-id ID]',
    '                             [--commit-url URL | --repo-url URL] [--ref BRANCH] [--spec FILE] [--workdir DIR] RESULT.json|DIR...',
  ],
  summary: 'add results to the gh-pages history and the trend site',
  details: `${HISTORY}
--commit-url (or --repo-url, which gives <URL>/commit/<sha>) lets the site link the measured
commit. --default-branch NAME is the branch the site's files always keep (default: the
branch with the most records; others are kept while recently active).
Defaults: --history-branch gh-pages, --folder bench, --repo . (its HEAD is the recorded commit),
--event local, --run-id local-<time>, every point kept up to the store's retention.`,
  fails: 'the history could not be written (the message says why; nothing half-written is pushed)',
  flags: [...HISTORY_FLAGS, ...RECORD_CONTEXT_FLAGS],
  run: historyPublish,
};
