// The function profiles of a split A/B (docs/profiles.md, "In a split A/B"). Each count piece
// profiles the rows its own counts flag (profileFlagged, from the dumps it kept) into its
// profiles/ folder and lists their differences in piece.json; the merge takes the differences of
// the rows the joined counts flag, orders and caps them as one job does (largest change first, at
// most MAX_PROFILED_ROWS rows, 16 MiB of files), and copies their files into <out>/profiles/.
// Piece folders come from jobs that ran the pull request's code: the lists are validated
// (ProfileDiffsSchema, in piece.json), only the file names a row's folder can hold are copied,
// plain files only, each within the cap, and no file is parsed; diff.json is written anew from
// the validated list.
import { copyFileSync, lstatSync, mkdirSync, writeFileSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { PROFILED } from '../evidence/index.js';
import { flaggedOn } from '../verdict/index.js';
import {
  DIFF_FILES,
  diffJson,
  folderBytes,
  MAX_PROFILE_BYTES,
  MAX_PROFILED_ROWS,
  ProfileDiffsSchema,
  profilesDir,
  ROW_FILES,
  rowFolder,
  type ProfileDiff,
} from '../profile/index.js';
import { InputError } from '../spec/errors.js';
import type { MeasureKind } from '../spec/measure.js';
import type { Runner } from '../spec/schema.js';
import type { AbRow } from '../verdict/index.js';

/** What a count piece's piece.json says of its profiles. */
export const PieceProfilesSchema = z.strictObject({
  /** The piece's flagged rows' differences, largest change first. */
  diffs: ProfileDiffsSchema,
  /** Time the piece spent making them. */
  ms: z.number().finite().nonnegative(),
  /** Rows past the piece's 16 MiB of files: their lists only. */
  unwritten: z.number().int().nonnegative(),
});
export type PieceProfiles = z.infer<typeof PieceProfilesSchema>;

/** A piece as the merge sees it: its folder, its file, what it measured and profiled. */
export interface ProfiledPiece {
  dir: string;
  file: string;
  evidence: MeasureKind;
  cases: readonly string[];
  profiles?: PieceProfiles;
}

export interface CarriedProfiles {
  /** In the order the comment shows them: the joined counts' flagged rows, largest change first. */
  diffs: ProfileDiff[];
  /** The pieces' profile time, summed. */
  ms: number;
  /** Rows with lists but no files (past a piece's or the merge's size cap). */
  unwritten: number;
  /** Files not carried, each named with why. */
  problems: string[];
}

const key = (r: { caseId: string; label: string }) => `${r.caseId}\u0000${r.label}`;
const FIX = `merge the folders \`bee-bench ab --piece ${PROFILED ?? 'EVIDENCE'}:K/N\` wrote, unchanged`;

/** The pieces' differences of the rows the joined counts flag; an inconsistent list is refused naming the piece's file. */
function acceptedDiffs(pieces: readonly ProfiledPiece[], rows: readonly AbRow[], runner: Runner): Array<{ diff: ProfileDiff; piece: ProfiledPiece }> {
  const rank = new Map((PROFILED ? flaggedOn(rows, PROFILED) : []).map((r, i) => [key(r), i]));
  const from = new Map<string, string>();
  const got: Array<{ diff: ProfileDiff; piece: ProfiledPiece }> = [];
  for (const piece of pieces) {
    if (piece.profiles && piece.evidence !== PROFILED)
      throw new InputError(piece.file, [`profiles: a ${piece.evidence} piece has none (only ${PROFILED ?? 'no evidence'} pieces leave dumps)`], FIX);
    for (const [i, diff] of (piece.profiles?.diffs ?? []).entries()) {
      const at = `profiles.diffs[${i}]`;
      const row = `${diff.caseId} ${diff.label}`;
      const problem =
        diff.runner !== runner
          ? `${at} is a ${diff.runner} profile in a ${runner} A/B`
          : !piece.cases.includes(diff.caseId)
            ? `${at}: row ${row} is not among the piece's cases`
            : !rank.has(key(diff))
              ? `${at}: row ${row} is not flagged by the joined counts`
              : from.has(key(diff))
                ? `${at}: row ${row} is also profiled in ${from.get(key(diff))}`
                : null;
      if (problem) throw new InputError(piece.file, [problem], FIX);
      from.set(key(diff), piece.file);
      got.push({ diff, piece });
    }
  }
  return got.sort((a, b) => rank.get(key(a.diff))! - rank.get(key(b.diff))!).slice(0, MAX_PROFILED_ROWS);
}

const statOf = (path: string): Stats | null => {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
};

/** Copies a row's files from a piece's folder: known names, plain files within the cap; false when the piece wrote none. */
function copyRowFiles(piece: ProfiledPiece, diff: ProfileDiff, into: string, problems: string[]): boolean {
  const from = join(piece.dir, 'profiles', rowFolder(diff));
  if (!statOf(from)?.isDirectory()) return false;
  const to = join(into, rowFolder(diff));
  mkdirSync(to, { recursive: true });
  for (const name of ROW_FILES.filter((n) => n !== DIFF_FILES.json)) {
    const src = join(from, name);
    const st = statOf(src);
    if (!st) continue;
    if (!st.isFile()) problems.push(`${src}: not a plain file, not carried`);
    else if (st.size > MAX_PROFILE_BYTES) problems.push(`${src}: ${st.size} bytes, more than the ${MAX_PROFILE_BYTES} a run's profiles may hold; not carried`);
    else copyFileSync(src, join(to, name));
  }
  writeFileSync(join(to, DIFF_FILES.json), diffJson(diff));
  return true;
}

/** The pieces' profiles joined as one job's: the differences in the comment's order, their files under <outDir>/profiles/. */
export function carryProfiles(pieces: readonly ProfiledPiece[], rows: readonly AbRow[], runner: Runner, outDir: string): CarriedProfiles | null {
  const profiled = pieces.filter((p) => p.profiles);
  if (profiled.length === 0) return null;
  const accepted = acceptedDiffs(profiled, rows, runner);
  const into = profilesDir(outDir);
  const problems: string[] = [];
  let unwritten = 0;
  for (const { diff, piece } of accepted) {
    // As one job writes them: no further row's files once the folder holds the cap.
    if (folderBytes(into) > MAX_PROFILE_BYTES || !copyRowFiles(piece, diff, into, problems)) unwritten++;
  }
  return { diffs: accepted.map((a) => a.diff), ms: profiled.reduce((s, p) => s + p.profiles!.ms, 0), unwritten, problems };
}
