// `bee-bench report RESULT...`: the aggregate report (md, html, csv) from result files or folders.
import { writeReports } from '../../report/write.js';
import { common, log, UsageError, type Values } from '../flags.js';
import { modelOf } from '../results.js';
import type { CliCommand } from '../command.js';

export function report(v: Values, positionals: string[]): number {
  if (positionals.length === 0) throw new UsageError('report needs result files or folders');
  const c = common(v);
  const paths = writeReports(c.outDir, modelOf(positionals, c.specFile));
  log(`wrote ${paths.markdown}, ${paths.html}, ${paths.csv}`);
  return 0;
}

/** `bee-bench report`: its help, its flags and what it runs. */
export const reportCli: CliCommand = {
  name: 'report',
  usage: ['bee-bench report  --out DIR [--spec FILE] RESULT.json|DIR...'],
  summary: 'the aggregate report (md, html, csv) from result files',
  details: 'Result files are named directly or found (*.json, recursively) under the folders given.',
  fails: 'never (unreadable results are bad input: 2)',
  flags: ['out', 'spec'],
  run: report,
};
