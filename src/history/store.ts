// Writing runs to the history branch (docs/design.md, "History store"). One attempt: bring a local clone to the
// remote branch tip (or an empty orphan when the branch does not exist yet), add the new record
// files under the folder, copy the site, re-derive every derived file from runs/, commit, push.
//
// A rejected push (another writer got there first) is resolved like a rebase whose conflicts are
// settled by re-derivation: the attempt is replayed on the new remote tip — our record files
// (kept in memory, byte for byte) on top of theirs, then the derived files derived afresh from the
// union — and pushed again, after a jittered exponential backoff, up to maxAttempts. New record
// files cannot conflict (paths name run and runner); derived files never need merging because they
// are recomputed. Nothing is ever force-pushed.
//
// Records are immutable: a record path that already exists with different bytes is refused
// (RecordConflictError), and before each commit the staged diff under runs/ is checked to contain
// only additions. So are the records' side files of compact function profiles, under profiles/,
// and release experiment summaries, under experiments/ (whose index.json is derived like index.json). Invalid records already in the branch are reported and left byte-identical.
//
// The local clone holds one writer at a time: writers sharing a workdir (e.g. several
// `history publish` run from one directory) queue on a lock directory beside it, <workdir>.lock
// (proper-lockfile: atomic mkdir, refreshed while held, taken over when its holder died).
import { existsSync } from 'node:fs';
import { cp, lstat, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, normalize, resolve, sep } from 'node:path';
import { lock } from 'proper-lockfile';
import { INDEX_FILE, SERIES_DIR, derive, type DeriveOptions } from './derive.js';
import {
  EXPERIMENTS_DIR,
  EXPERIMENT_INDEX_FILE,
  deriveExperimentIndex,
  experimentPath,
  readExperiments,
  serializeExperiment,
  type ExperimentSummary,
} from './experiments.js';
import { DEFAULT_IDENTITY, gitIn, redact, type Git, type Identity } from './git.js';
import { PROFILES_DIR, profilesPath, serializeRunProfiles } from './profiles.js';
import { HistoryLinkError, RUNS_DIR, readRecords } from './read.js';

export { HistoryLinkError } from './read.js';
import type { RunProfiles } from '../profile/index.js';
import { recordPath, serializeRecord, type InvalidRecord } from './record.js';
import type { RecordSet } from './read.js';
import type { HistoryRecord } from './schema.js';

export interface WriteOptions {
  /** Remote URL or path (credentials in it are never logged; prefer token). */
  remote: string;
  /** Token for an HTTP(S) remote, handed to git as a header for that URL only (never in argv or the URL). */
  token?: string;
  /** Local clone: created when absent, fetched into and reused when present; writers sharing it take turns. */
  workdir: string;
  /** How long to wait for another writer's hold on the workdir; default 15 minutes. */
  lockTimeoutMs?: number;
  /** Default gh-pages. */
  branch?: string;
  /** History folder inside the branch; default "bench". */
  folder?: string;
  /** Files copied into the folder root in the same commit (e.g. pages/ build: index.html, app.js). */
  siteDir?: string;
  derive?: DeriveOptions;
  identity?: Identity;
  /** Commit message; a default names the records. */
  message?: string;
  /** Push attempts in all; default 10. */
  maxAttempts?: number;
  /** Backoff before attempt k+1: min(maxMs, baseMs * 2^(k-1)) * uniform(0.5, 1.5); default 500 / 20000 ms. */
  backoff?: { baseMs: number; maxMs: number };
  log?: (line: string) => void;
  /** The present, for refusing records dated after it (plus FUTURE_SKEW_MS); default Date.now(). */
  now?: () => number;
  /** Compact function profiles per runner: each record of that runner gets its side file (profiles.ts). */
  profiles?: readonly RunProfiles[];
  /** Release experiment summaries, written as immutable experiments/<id>.json beside the records (experiments.ts). */
  experiments?: readonly ExperimentSummary[];
}

/** How far past the present a record's times may lie (clocks of runners and git hosts differ a little). */
export const FUTURE_SKEW_MS = 10 * 60_000;

export interface WriteReport {
  /** The pushed commit, or null when the branch already held exactly these records and derived files. */
  commit: string | null;
  attempts: number;
  /** Record paths (relative to the folder) this write added. */
  added: string[];
  /** Record paths that were already there with identical bytes. */
  present: string[];
  /** Invalid records found under runs/: reported, excluded from derived files, left untouched. */
  invalid: InvalidRecord[];
}

/** Refusal to change an existing record. */
export class RecordConflictError extends Error {
  constructor(readonly file: string) {
    super(`${file}: a different record already exists at this path; records are immutable, refusing to overwrite it`);
    this.name = 'RecordConflictError';
  }
}

const RESERVED = new Set([RUNS_DIR, PROFILES_DIR, SERIES_DIR, INDEX_FILE, EXPERIMENTS_DIR]);

export function normalizeFolder(folder: string): string {
  const f = normalize(folder.replace(/^\/+|\/+$/g, '') || '.')
    .split(sep)
    .join('/');
  if (f === '..' || f.startsWith('../') || f.startsWith('/')) throw new RangeError(`history folder must stay inside the branch: ${folder}`);
  return f;
}

/** Appends records to the history branch; see the module comment for the protocol. */
export async function writeHistory(records: readonly HistoryRecord[], opts: WriteOptions): Promise<WriteReport> {
  const branch = opts.branch ?? 'gh-pages';
  const folder = normalizeFolder(opts.folder ?? 'bench');
  const maxAttempts = opts.maxAttempts ?? 10;
  const backoff = opts.backoff ?? { baseMs: 500, maxMs: 20_000 };
  const log = opts.log ?? (() => {});
  const git = gitIn(opts.workdir, opts.identity ?? DEFAULT_IDENTITY, opts.token ? { url: opts.remote, token: opts.token } : undefined);

  const notAfter = (opts.now ?? Date.now)() + FUTURE_SKEW_MS;
  for (const r of records) {
    const late = futureField(r, notAfter);
    if (late)
      throw new RangeError(
        `history: record ${recordPath(r)} is dated in the future (${late}); a record from the future would outlive every other branch in the derived files. Fix the clock or the record's ${late.split(' ')[0]}`,
      );
  }
  const files = recordFiles(records, opts.profiles, log);
  for (const e of opts.experiments ?? []) {
    const path = experimentPath(e.id);
    const text = serializeExperiment(e);
    const prev = files.get(path);
    if (prev !== undefined && prev !== text) throw new RecordConflictError(path);
    files.set(path, text);
  }
  const message = opts.message ?? defaultMessage(records, branch, opts.experiments ?? []);
  const release = await lockWorkdir(opts.workdir, opts.lockTimeoutMs ?? 15 * 60_000, log);
  try {
    await openClone(git, opts.remote);
    return await pushAttempts(git, files, { ...opts, branch, folder, maxAttempts, backoff, log, message });
  } finally {
    await release();
  }
}

/** Holds <workdir>.lock; waits for another holder up to timeoutMs (a dead holder's lock goes stale in 30 s). */
async function lockWorkdir(workdir: string, timeoutMs: number, log: (line: string) => void): Promise<() => Promise<void>> {
  const dir = resolve(workdir);
  const lockPath = `${dir}.lock`;
  await mkdir(dirname(dir), { recursive: true });
  const maxTimeout = 1000;
  try {
    return await lock(dir, {
      realpath: false,
      lockfilePath: lockPath,
      stale: 30_000,
      retries: { retries: Math.max(1, Math.ceil(timeoutMs / maxTimeout)), factor: 1.5, minTimeout: 50, maxTimeout, randomize: true },
      onCompromised: (e) => log(`history: lost the workdir lock ${lockPath} (${e.message}); another writer may share ${dir}`),
    });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ELOCKED') throw e;
    throw new Error(
      `history: workdir ${dir} is still in use by another writer after ${Math.round(timeoutMs / 1000)} s (lock ${lockPath}); give this publish its own --workdir, or remove the lock if no writer is running`,
    );
  }
}

type Attempts = Required<Pick<WriteOptions, 'branch' | 'folder' | 'maxAttempts' | 'backoff' | 'log' | 'message'>> & WriteOptions;

async function pushAttempts(git: Git, files: ReadonlyMap<string, string>, opts: Attempts): Promise<WriteReport> {
  const { branch, folder, maxAttempts, backoff, log, message } = opts;
  for (let attempt = 1; ; attempt++) {
    await checkoutTip(git, branch);
    const folderAbs = join(opts.workdir, folder);
    // Before anything is read or written: the branch's own tree may not lead outside the clone.
    await refuseLinks(opts.workdir, folder);
    const written = await addRecords(folderAbs, files);
    // The report counts records and experiments; the records' side files go with them.
    const isRecord = (path: string) => path.startsWith(`${RUNS_DIR}/`) || path.startsWith(`${EXPERIMENTS_DIR}/`);
    const added = written.added.filter(isRecord);
    const present = written.present.filter(isRecord);
    if (opts.siteDir) await copySite(opts.siteDir, folderAbs);
    const set = setAsideFuture(readRecords(folderAbs), (opts.now ?? Date.now)() + FUTURE_SKEW_MS);
    await writeDerived(folderAbs, derive(set, opts.derive));
    const experiments = readExperiments(folderAbs);
    if (experiments.summaries.length > 0 || experiments.invalid.length > 0)
      await writeFile(join(folderAbs, EXPERIMENTS_DIR, EXPERIMENT_INDEX_FILE), deriveExperimentIndex(experiments.summaries, experiments.invalid));
    await git(['add', '--all', '--', folder]);
    const staged = await stagedChanges(git, folder);
    const report = { attempts: attempt, added, present, invalid: set.invalid };
    if (staged.length === 0) return { ...report, commit: null };
    await git(['commit', '-q', '--no-verify', '-m', message]);
    const commit = (await git(['rev-parse', 'HEAD'])).trim();
    const push = await git(['push', '--porcelain', 'origin', `HEAD:refs/heads/${branch}`], { allowFail: true });
    if (push.ok) {
      log(`history: pushed ${commit.slice(0, 7)} to ${branch} (${added.length} new record(s), attempt ${attempt})`);
      return { ...report, commit };
    }
    const why = lastLines(`${push.stdout}\n${push.stderr}`);
    if (
      /Authentication failed|Permission denied|could not read Username|Repository not found|does not appear to be a git repository|returned error: 403|403 Forbidden/.test(
        push.stderr,
      )
    ) {
      throw new Error(`history: push to ${branch} refused: ${why}`);
    }
    if (attempt >= maxAttempts) throw new Error(`history: push to ${branch} still rejected after ${attempt} attempts: ${why}`);
    const delay = Math.round(Math.min(backoff.maxMs, backoff.baseMs * 2 ** (attempt - 1)) * (0.5 + Math.random()));
    log(`history: push rejected (${why}); replaying on the new tip in ${delay} ms`);
    await new Promise((r) => setTimeout(r, delay));
  }
}

/** The first of a record's times after notAfter, as "<field> <value>", or undefined. */
function futureField(r: Pick<HistoryRecord, 'started_at' | 'finished_at' | 'commit'>, notAfter: number): string | undefined {
  const fields: Array<[string, string | null | undefined]> = [
    ['started_at', r.started_at],
    ['finished_at', r.finished_at],
    ['commit.timestamp', r.commit.timestamp],
  ];
  for (const [name, value] of fields) if (value && Date.parse(value) > notAfter) return `${name} ${value}`;
  return undefined;
}

/**
 * Records already in the branch dated in the future are reported as invalid and left out of the
 * derived files (their files stay as they are): retention counts from the newest record, so one
 * dated 9999 would expire every other branch.
 */
function setAsideFuture(set: RecordSet, notAfter: number): RecordSet {
  const records = [];
  const invalid = [...set.invalid];
  for (const loaded of set.records) {
    const late = futureField(loaded.record, notAfter);
    if (late) invalid.push({ file: loaded.path, problem: `dated in the future (${late}); left out of the derived files` });
    else records.push(loaded);
  }
  return { records, invalid: invalid.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0)) };
}

/** Throws HistoryLinkError when the folder, a folder above it in the clone, or anything under it is a symlink. */
async function refuseLinks(workdir: string, folder: string): Promise<void> {
  const parts = folder === '.' ? [] : folder.split('/');
  for (let i = 1; i <= parts.length; i++) {
    const rel = parts.slice(0, i).join('/');
    const st = await lstat(join(workdir, rel)).catch(() => undefined);
    if (!st) return; // not there yet: created fresh by this write
    if (st.isSymbolicLink()) throw new HistoryLinkError(rel);
  }
  const walk = async (rel: string): Promise<void> => {
    for (const e of await readdir(join(workdir, rel), { withFileTypes: true })) {
      const child = rel === '.' ? e.name : `${rel}/${e.name}`;
      if (e.isSymbolicLink()) throw new HistoryLinkError(child);
      if (e.isDirectory() && child !== '.git') await walk(child);
    }
  };
  await walk(folder);
}

function lastLines(s: string): string {
  return redact(
    s
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.length > 0 && l !== 'Done')
      .slice(-5)
      .join(' | '),
  );
}

function defaultMessage(records: readonly HistoryRecord[], branch: string, experiments: readonly ExperimentSummary[]): string {
  const paths = [...records.map(recordPath), ...experiments.map((e) => experimentPath(e.id))].sort();
  const first = records[0];
  const head = first
    ? `bench: record ${first.commit.sha.slice(0, 7)} (${[...new Set(records.map((r) => r.runner))].join(', ')}) from ${first.branch}`
    : experiments.length > 0
      ? `bench: experiment ${experiments.map((e) => e.id).join(', ')}`
      : `bench: re-derive ${branch}`;
  return [head, '', ...paths].join('\n');
}

async function openClone(git: Git, remote: string): Promise<void> {
  if (!existsSync(join(git.cwd, '.git'))) {
    await mkdir(git.cwd, { recursive: true });
    await git(['init', '-q']);
    await git(['remote', 'add', 'origin', remote]);
  } else {
    await git(['remote', 'set-url', 'origin', remote]);
  }
}

/** Work tree and index = the remote branch tip, or an empty orphan branch when it does not exist. */
async function checkoutTip(git: Git, branch: string): Promise<void> {
  const tracking = `refs/remotes/origin/${branch}`;
  const fetched = await git(['fetch', '-q', '--no-tags', '--depth=1', 'origin', `+refs/heads/${branch}:${tracking}`], { allowFail: true });
  if (fetched.ok) {
    await git(['checkout', '-q', '-f', '-B', branch, tracking]);
  } else if (/couldn't find remote ref/i.test(fetched.stderr)) {
    await git(['update-ref', '-d', tracking], { allowFail: true });
    await git(['symbolic-ref', 'HEAD', `refs/heads/${branch}`]);
    await git(['update-ref', '-d', `refs/heads/${branch}`], { allowFail: true });
    await git(['read-tree', '--empty']);
  } else {
    throw new Error(`history: cannot fetch ${branch}: ${lastLines(fetched.stderr)}`);
  }
  await git(['clean', '-q', '-f', '-d', '-x']);
}

/** The record files (and their profiles' side files) of `records`, by path under the history folder. */
function recordFiles(records: readonly HistoryRecord[], profiles: readonly RunProfiles[] | undefined, log: (line: string) => void): Map<string, string> {
  const files = new Map<string, string>();
  for (const r of records) {
    const path = recordPath(r);
    const text = serializeRecord(r);
    const prev = files.get(path);
    if (prev !== undefined && prev !== text) throw new RecordConflictError(path);
    files.set(path, text);
    const mine = profiles?.find((p) => p.runner === r.runner);
    if (mine) {
      const side = serializeRunProfiles(r, mine);
      if ('text' in side) files.set(profilesPath(r), side.text);
      else log(`history: ${profilesPath(r)} not written: ${side.refused}; the record is`);
    }
  }
  return files;
}

/**
 * A history kept in a plain folder, no git (`bee-bench run` keeps one as it goes; `bee-bench site`
 * serves it): the records added under runs/ (immutable as on a branch) and the derived files
 * re-derived from every record in the folder.
 */
export async function writeFolder(
  records: readonly HistoryRecord[],
  opts: { folder: string; derive?: DeriveOptions; profiles?: readonly RunProfiles[]; log?: (line: string) => void },
): Promise<Pick<WriteReport, 'added' | 'present' | 'invalid'>> {
  const log = opts.log ?? (() => {});
  const folderAbs = resolve(opts.folder);
  await mkdir(folderAbs, { recursive: true });
  const written = await addRecords(folderAbs, recordFiles(records, opts.profiles, log));
  const set = setAsideFuture(readRecords(folderAbs), Date.now() + FUTURE_SKEW_MS);
  await writeDerived(folderAbs, derive(set, opts.derive));
  const isRecord = (path: string) => path.startsWith(`${RUNS_DIR}/`);
  return { added: written.added.filter(isRecord), present: written.present.filter(isRecord), invalid: set.invalid };
}

async function addRecords(folderAbs: string, files: ReadonlyMap<string, string>): Promise<{ added: string[]; present: string[] }> {
  const added: string[] = [];
  const present: string[] = [];
  for (const [path, text] of files) {
    const abs = join(folderAbs, path);
    let existing: string | null = null;
    try {
      existing = await readFile(abs, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    if (existing === null) {
      await mkdir(dirname(abs), { recursive: true });
      await writeFile(abs, text, { flag: 'wx' });
      added.push(path);
    } else if (existing === text) {
      present.push(path);
    } else {
      throw new RecordConflictError(path);
    }
  }
  return { added: added.sort(), present: present.sort() };
}

async function copySite(siteDir: string, folderAbs: string): Promise<void> {
  for (const name of await readdir(siteDir)) {
    if (RESERVED.has(name)) throw new Error(`history: site file ${name} would shadow the history's own ${name}; rename it in ${siteDir}`);
  }
  await mkdir(folderAbs, { recursive: true });
  await cp(siteDir, folderAbs, { recursive: true, force: true });
}

/** Writes index.json and series/*, removing series files a fresh derivation no longer produces. */
export async function writeDerived(folderAbs: string, derived: ReadonlyMap<string, string>): Promise<void> {
  await rm(join(folderAbs, SERIES_DIR), { recursive: true, force: true });
  await mkdir(join(folderAbs, SERIES_DIR), { recursive: true });
  for (const [path, text] of derived) await writeFile(join(folderAbs, path), text);
}

/**
 * Derived files that differ from a fresh derivation of <folderAbs>/runs: changed or missing
 * (expected bytes differ) and extra series files. Empty when the folder is consistent.
 */
export async function staleDerived(folderAbs: string, opts: DeriveOptions = {}): Promise<string[]> {
  const fresh = derive(readRecords(folderAbs), opts);
  const out: string[] = [];
  for (const [path, text] of fresh) {
    const have = await readFile(join(folderAbs, path), 'utf8').catch(() => null);
    if (have !== text) out.push(path);
  }
  const series = await readdir(join(folderAbs, SERIES_DIR)).catch(() => [] as string[]);
  for (const name of series) if (!fresh.has(`${SERIES_DIR}/${name}`)) out.push(`${SERIES_DIR}/${name}`);
  return out.sort();
}

/**
 * Staged changes under the folder as [status, path]; throws when any change under runs/ is not an
 * addition (a record is never modified or deleted).
 */
async function stagedChanges(git: Git, folder: string): Promise<Array<[string, string]>> {
  const out = (await git(['diff', '--cached', '--name-status', '--no-renames', '-z', '--', folder])).split('\0');
  const changes: Array<[string, string]> = [];
  for (let i = 0; i + 1 < out.length; i += 2) changes.push([out[i] as string, out[i + 1] as string]);
  // Records, their profiles' side files and experiment summaries alike (not the experiments' derived index).
  const under = (d: string) => (folder === '.' ? `${d}/` : `${folder}/${d}/`);
  const immutable = [RUNS_DIR, PROFILES_DIR, EXPERIMENTS_DIR].map(under);
  const derivedIndex = `${under(EXPERIMENTS_DIR)}${EXPERIMENT_INDEX_FILE}`;
  const bad = changes.filter(([status, path]) => immutable.some((dir) => path.startsWith(dir)) && path !== derivedIndex && status !== 'A');
  if (bad.length > 0) throw new Error(`history: refusing to commit changes to existing records: ${bad.map(([s, p]) => `${s} ${p}`).join(', ')}`);
  return changes;
}
