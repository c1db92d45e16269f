// `bee-bench merge --out DIR SHARD_DIR...`: the shards joined as one run's results and report.
import { resolve } from 'node:path';
import { defaultSpecPath } from '../../build/paths.js';
import { mergeCommand } from '../../shard/commands.js';
import { log, UsageError, type Values } from '../flags.js';

export function merge(v: Values, dirs: string[]): number {
  if (dirs.length === 0) throw new UsageError('merge needs the shard folders: bee-bench merge --out DIR SHARD_DIR...');
  const { merged, reports } = mergeCommand(resolve(v.spec ?? defaultSpecPath()), dirs, resolve(v.out ?? 'out'));
  for (const s of merged.missingShards) log(`merge: shard ${s}/${merged.assignment.shards.length} has no output`);
  for (const r of merged.missingRows) log(`merge: missing ${r}`);
  for (const p of merged.problems) log(`merge: ${p}`);
  log(`wrote ${reports.markdown}, ${reports.html}, ${reports.csv}`);
  return merged.missingShards.length + merged.missingRows.length + merged.problems.length > 0 ? 1 : 0;
}
