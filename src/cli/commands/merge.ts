// `bee-bench merge --out DIR SHARD_DIR...`: the shards joined as one run's results and report.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defaultSpecPath } from '../../build/paths.js';
import { mergeCommand } from '../../shard/commands.js';
import { mergePieces, AB_PIECE_FILE } from '../../ab/pieces.js';
import { log, UsageError, type Values } from '../flags.js';
import type { CliCommand } from '../command.js';

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

/** `bee-bench merge`: its help, its flags and what it runs. */
export const mergeCli: CliCommand = {
  name: 'merge',
  usage: ['bee-bench merge   --out DIR [--spec FILE] SHARD_DIR...'],
  summary: "the shards' outputs joined as one run's results and report; or an A/B's pieces judged as one",
  details: `Writes DIR/results/<runner>.json and the report, as run --out DIR does, with a Shards section
(each shard's machine and time). Every planned row is accounted for: a shard with no output or a
row no shard delivered is named, with its rows, and the exit code is 1; so is a digest that
differs between shards.
Given the folders of \`ab --piece\` instead (each with piece.json; --marker TEXT as in ab), writes DIR/ab.md, DIR/ab.json and
the count pieces' flagged rows' DIR/profiles/ as one \`ab\` would, and prints the report; a piece
of the split that is missing is named and the exit code is 1. Runs no client code.`,
  fails: 'a shard, a piece or a row is missing, or a digest differs between shards',
  flags: ['out', 'spec', 'marker'],
  run: merge,
};
