// `bee-bench compare OLD_DIR NEW_DIR`: two runs' results side by side, descriptive (no verdict).
import { resolve } from 'node:path';
import { compareModels } from '../../report/model/compare.js';
import { renderCompareMarkdown } from '../../report/render/compare-markdown.js';
import { writeText } from '../../report/write.js';
import { common, UsageError, type Values } from '../flags.js';
import { modelOf } from '../results.js';

export function compare(v: Values, positionals: string[]): number {
  if (positionals.length !== 2) throw new UsageError('compare needs OLD_DIR NEW_DIR');
  const c = common(v);
  const cmp = compareModels(modelOf([positionals[0]!], c.specFile), modelOf([positionals[1]!], c.specFile));
  const md = renderCompareMarkdown(cmp);
  if (v.out) writeText(resolve(v.out), md);
  process.stdout.write(md);
  return 0;
}
