// `bee-bench merge --out DIR SHARD_DIR...`: the shards joined as one run's results and report.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defaultSpecPath } from '../../build/paths.js';
import { mergeCommand } from '../../shard/commands.js';
import { mergePieces, AB_PIECE_FILE } from '../../ab/pieces.js';
import { log, UsageError, type Values } from '../flags.js';

/** `merge --out DIR PIECE_DIR...`: the pieces of a split A/B judged as one (ab.md, ab.json); exit 1 naming a missing piece. */
function mergeAbPieces(v: Values, dirs: string[]): number {
  const merged = mergePieces(dirs, {
    specFile: resolve(v.spec ?? defaultSpecPath()),
    outDir: resolve(v.out ?? 'out'),
    ...(v.marker ? { marker: v.marker } : {}),
  });
  for (const m of merged.missing) log(`merge: piece ${m} has no output`);
  for (const p of merged.profiles?.problems ?? []) log(`merge: profiles: ${p}`);
  if (merged.profiles) log(`merge: profiles of ${merged.profiles.diffs.length} flagged row(s) in ${join(resolve(v.out ?? 'out'), 'profiles')}`);
  process.stdout.write(merged.report.markdown);
  log(`wrote ${merged.report.markdownFile}`);
  return merged.missing.length > 0 ? 1 : 0;
}

export function merge(v: Values, dirs: string[]): number {
  if (dirs.length === 0) throw new UsageError('merge needs the shard folders: bee-bench merge --out DIR SHARD_DIR...');
  if (existsSync(join(dirs[0]!, AB_PIECE_FILE))) return mergeAbPieces(v, dirs);
  const { merged, reports } = mergeCommand(resolve(v.spec ?? defaultSpecPath()), dirs, resolve(v.out ?? 'out'));
  for (const s of merged.missingShards) log(`merge: shard ${s}/${merged.assignment.shards.length} has no output`);
  for (const r of merged.missingRows) log(`merge: missing ${r}`);
  for (const p of merged.problems) log(`merge: ${p}`);
  log(`wrote ${reports.markdown}, ${reports.html}, ${reports.csv}`);
  return merged.missingShards.length + merged.missingRows.length + merged.problems.length > 0 ? 1 : 0;
}
