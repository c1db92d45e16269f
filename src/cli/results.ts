// Result files named on the command line (report, compare, history publish) and the aggregate
// model built from them.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { aggregate } from '../report/model/aggregate.js';
import type { AggregateModel } from '../report/model/types.js';
import { loadResult, loadSpec } from '../spec/load.js';
import { UsageError } from './flags.js';

/** Result files named directly or found (*.json, recursively) under a folder; report outputs are not results. */
export function resultFiles(paths: readonly string[]): string[] {
  const files: string[] = [];
  const walk = (p: string) => {
    if (statSync(p).isDirectory()) for (const e of readdirSync(p).sort()) walk(join(p, e));
    else if (p.endsWith('.json') && !/(aggregate|ab)\.json$/.test(p)) files.push(p);
  };
  for (const p of paths) {
    if (!existsSync(p)) throw new UsageError(`${p}: no such file or folder`);
    walk(resolve(p));
  }
  return files;
}

export function modelOf(paths: readonly string[], specFile: string): AggregateModel {
  const { spec, hash } = loadSpec(specFile);
  const results = resultFiles(paths).map(loadResult);
  if (results.length === 0) throw new UsageError(`no result files under ${paths.join(', ')}`);
  return aggregate(results, spec, { specHash: hash });
}
