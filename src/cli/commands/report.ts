// `bee-bench report RESULT...`: the aggregate report (md, html, csv) from result files or folders.
import { writeReports } from '../../report/write.js';
import { common, log, UsageError, type Values } from '../flags.js';
import { modelOf } from '../results.js';

export function report(v: Values, positionals: string[]): number {
  if (positionals.length === 0) throw new UsageError('report needs result files or folders');
  const c = common(v);
  const paths = writeReports(c.outDir, modelOf(positionals, c.specFile));
  log(`wrote ${paths.markdown}, ${paths.html}, ${paths.csv}`);
  return 0;
}
