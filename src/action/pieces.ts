// A pull request's A/B as parallel jobs (docs/action.md "A PR as parallel jobs"): with `piece`, a
// read-only measure job measures one piece (wall time, or K of N of the instruction counts or
// allocations) and uploads it as `bench-piece-<client>-<piece>`; with `pieces-path`, the merge job
// (read-only, no checkout, runs only bee-bench) reads every piece, judges them as one A/B and
// leaves the same report, profiles/ and `bee-bench-<client>` bundle one measure job leaves, for
// the publish job (which reads the profiles' lists from comment.json only, validated).
import { isDeterministic } from '../spec/measure.js';
import * as core from '@actions/core';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { uploadFolder } from '../github/artifacts.js';
import { ensureValgrind } from '../count/install.js';
import type { AbReport } from '../ab/report.js';
import { costModel } from '../shard/commands.js';
import { mergePieces, pieceText, runPiece, type PieceRef } from '../ab/pieces.js';
import { markerFor } from './bundle.js';
import { abOptions, announce, log, prebuild, type FlowEnv, type SideSource } from './flow-steps.js';

/** The artifact of one piece; not `bee-bench-*`, which the publish job reads. */
export const pieceArtifact = (client: string, piece: PieceRef) => `bench-piece-${client}-${pieceText(piece).replace(/[:/]/g, '-')}`;

/** Builds both sides, measures the job's piece into piece.json and uploads it. */
export async function measurePiece(env: FlowEnv, piece: PieceRef, base: SideSource, head: SideSource, commits: { base: string; head: string }): Promise<void> {
  const i = env.inputs;
  await prebuild(env, 'base', i.client, base.source, i.buildCommand);
  await prebuild(env, 'head', i.client, head.source, i.buildCommand);
  await ensureValgrind(i.measure, log);
  const split = Object.fromEntries(i.measure.filter(isDeterministic).map((k) => [k, i.split]));
  const model = costModel({ specFile: i.specFile, runners: [i.client], size: i.profile, cases: i.cases, large: false, evidences: [...i.measure] });
  const got = await core.group(`A/B piece ${pieceText(piece)} of ${i.client}`, () =>
    runPiece({
      ...abOptions(env, base, head),
      piece,
      split,
      model,
      commits,
    }),
  );
  log(`piece ${pieceText(piece)}: ${got.cases.length} case(s) in ${Math.round(got.elapsed_s)} s`);
  await uploadFolder(pieceArtifact(i.client, piece), env.outDir, log);
}

/** The piece folders under `pieces-path` (actions/download-artifact puts each artifact in a folder of its name). */
function pieceDirs(root: string): string[] {
  return readdirSync(root)
    .map((d) => join(root, d))
    .filter((d) => statSync(d).isDirectory())
    .sort();
}

/** The pieces judged as one A/B: the report, and the commits the pieces measured; a missing piece is an error naming it. */
export function mergePieceArtifacts(env: FlowEnv, root: string): { report: AbReport; commits?: { base: string; head: string } } {
  const merged = mergePieces(pieceDirs(root), { specFile: env.inputs.specFile, outDir: env.outDir, marker: markerFor(env.ctx.workflow, env.inputs.client) });
  for (const p of merged.profiles?.problems ?? []) log(`profiles: ${p}`);
  announce(merged.report, env.outDir);
  if (merged.missing.length > 0)
    core.setFailed(`pieces missing from ${root}: ${merged.missing.join(', ')} (did every measure job of the matrix succeed and upload its piece?)`);
  return { report: merged.report, ...(merged.pieces[0]?.ab.commits ? { commits: merged.pieces[0].ab.commits } : {}) };
}
