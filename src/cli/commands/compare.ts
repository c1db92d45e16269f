// `bee-bench compare OLD_DIR NEW_DIR`: two runs' results side by side, descriptive (no verdict).
import { resolve } from 'node:path';
import { compareModels } from '../../report/model/compare.js';
import { renderCompareMarkdown } from '../../report/render/compare-markdown.js';
import { writeText } from '../../report/write.js';
import { common, UsageError, type Values } from '../flags.js';
import { modelOf } from '../results.js';
import type { CliCommand } from '../command.js';

export function compare(v: Values, positionals: string[]): number {
  if (positionals.length !== 2) throw new UsageError('compare needs OLD_DIR NEW_DIR');
  const c = common(v);
  const cmp = compareModels(modelOf([positionals[0]!], c.specFile), modelOf([positionals[1]!], c.specFile));
  const md = renderCompareMarkdown(cmp);
  if (v.out) writeText(resolve(v.out), md);
  process.stdout.write(md);
  return 0;
}

/** `bee-bench compare`: its help, its flags and what it runs. */
export const compareCli: CliCommand = {
  name: 'compare',
  usage: ['bee-bench compare OLD_DIR NEW_DIR [--out FILE] [--spec FILE]'],
  summary: 'what changed between two folders of results',
  details: 'Prints the comparison as markdown; --out also writes it to FILE (default: stdout only).',
  fails: 'never (unreadable results are bad input: 2)',
  flags: ['out', 'spec'],
  run: compare,
};
