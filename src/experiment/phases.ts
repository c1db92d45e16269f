// The three phases of an experiment, each resumable from the journal and runnable apart:
// upload (one unique payload per unit, in run order), sync (each upload waited for on the node's
// own signal, up to the ceiling) and download (up to `attempts` tries per unit, each bounded,
// the content checked against the payload's sha256). A unit's step is done when its row is in
// the journal, so a run killed anywhere repeats no row and loses none.
import { opDeadline, RunnerError, RunnerHungError } from './driver.js';
import { now } from './journal.js';
import { payloadSha256, unitSeed } from './payload.js';
import type { Session } from './session.js';
import { probeSignal, signalFor, type Signal } from './sync.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function phase(s: Session, name: 'upload' | 'sync' | 'download', state: 'start' | 'done'): void {
  s.journal.append({ type: 'phase', phase: name, state, at: now() });
}

function progress(s: Session, what: string, done: number, total: number, every: number): void {
  if (done === total || done % every === 0) s.log(`experiment: ${what} ${done}/${total}`);
}

export async function uploadPhase(s: Session): Promise<void> {
  const st = s.journal.state;
  if (st.phasesDone.has('upload')) return;
  phase(s, 'upload', 'start');
  const todo = s.units.filter((u) => !st.uploads.has(u.key));
  const timeoutMs = s.design.timeout_s * 1000;
  let n = 0;
  for (const u of todo) {
    const seed = unitSeed(s.seed, u.key);
    const sha256 = payloadSha256(seed, u.size);
    const runner = s.runners.get(u.node)!;
    const base = {
      type: 'upload' as const,
      unit: u.key,
      node: u.node,
      release: u.release,
      size: u.size,
      level: u.level,
      strategy: u.strategy,
      rep: u.rep,
      seed,
      sha256,
    };
    try {
      const a = await runner.upload(
        { op: 'upload', id: u.key, size: u.size, seed, level: u.level, deferred: s.design.upload === 'deferred', endpoint: s.design.endpoint },
        opDeadline(timeoutMs),
      );
      if (a.ok)
        s.journal.append({ ...base, ok: true, ms: a.ms, reference: a.reference.toLowerCase(), ...(a.tag !== undefined ? { tag: a.tag } : {}), at: now() });
      else s.journal.append({ ...base, ok: false, ms: a.ms ?? 0, error: a.error, at: now() });
    } catch (e) {
      if (!(e instanceof RunnerHungError)) throw e;
      s.journal.append({ ...base, ok: false, ms: opDeadline(timeoutMs).ms, error: e.message, at: now() });
    }
    progress(s, 'uploads', ++n, todo.length, 50);
  }
  phase(s, 'upload', 'done');
}

interface Waiting {
  unit: string;
  node: string;
  signal: Exclude<Signal, 'none'>;
  detail?: string;
  tag?: number;
  reference: string;
  last: string;
}

/** Waits for every ok upload without a sync row; units are polled in rounds, each bounded by the ceiling. */
export async function syncPhase(s: Session): Promise<void> {
  const st = s.journal.state;
  if (st.phasesDone.has('sync')) return;
  if (!st.phasesDone.has('upload')) throw new Error(`${s.dir}: the uploads are not finished: run \`bee-bench experiment upload --out ${s.dir}\` first`);
  phase(s, 'sync', 'start');
  const started = performance.now();
  const waiting: Waiting[] = [];
  for (const u of s.units) {
    const up = st.uploads.get(u.key);
    if (!up?.ok || st.synced.has(u.key)) continue;
    const node = s.nodes.get(u.node)!;
    const { signal, detail } = signalFor(s.design.wait, node.dev, up.tag);
    if (signal === 'none') {
      s.journal.append({
        type: 'sync',
        unit: u.key,
        node: u.node,
        signal,
        synced: true,
        waited_ms: 0,
        detail: detail ?? 'the design waits for no signal',
        at: now(),
      });
      continue;
    }
    waiting.push({
      unit: u.key,
      node: u.node,
      signal,
      ...(detail ? { detail } : {}),
      ...(up.tag !== undefined ? { tag: up.tag } : {}),
      reference: up.reference!,
      last: 'not looked at yet',
    });
  }
  const ceilingMs = s.design.wait.ceiling_s * 1000;
  let pending = waiting;
  while (pending.length > 0) {
    const next: Waiting[] = [];
    for (const w of pending) {
      const url = s.nodes.get(w.node)!.url;
      let seen: true | string;
      try {
        seen = await probeSignal(url, w.signal, w);
      } catch (e) {
        seen = (e as Error).message;
      }
      const waited = Math.round(performance.now() - started);
      const note = (d: string) => (w.detail ? `${w.detail}; ${d}` : d);
      if (seen === true)
        s.journal.append({
          type: 'sync',
          unit: w.unit,
          node: w.node,
          signal: w.signal,
          synced: true,
          waited_ms: waited,
          ...(w.detail ? { detail: w.detail } : {}),
          at: now(),
        });
      else if (waited >= ceilingMs)
        s.journal.append({
          type: 'sync',
          unit: w.unit,
          node: w.node,
          signal: w.signal,
          synced: false,
          waited_ms: waited,
          detail: note(`ceiling of ${s.design.wait.ceiling_s} s reached: ${seen}`),
          at: now(),
        });
      else next.push({ ...w, last: seen });
    }
    pending = next;
    if (pending.length > 0) {
      s.log(
        `experiment: waiting for ${pending.length} upload(s) to sync (${Math.round((performance.now() - started) / 1000)} s of ${s.design.wait.ceiling_s} s; ${pending[0]!.last})`,
      );
      await sleep(s.design.wait.poll_s * 1000);
    }
  }
  phase(s, 'sync', 'done');
}

/** Downloads every synced (or ceiling-reached) unit: attempts until one is right or `attempts` are spent. */
export async function downloadPhase(s: Session): Promise<void> {
  const st = s.journal.state;
  if (st.phasesDone.has('download')) return;
  if (!st.phasesDone.has('sync')) throw new Error(`${s.dir}: the sync wait is not finished: run \`bee-bench experiment wait --out ${s.dir}\` first`);
  phase(s, 'download', 'start');
  const timeoutMs = s.design.timeout_s * 1000;
  const todo = s.units.filter((u) => st.uploads.get(u.key)?.ok);
  let n = 0;
  for (const u of todo) {
    const up = st.uploads.get(u.key)!;
    const runner = s.runners.get(u.node)!;
    const base = { type: 'download' as const, unit: u.key, node: u.node, release: u.release, size: u.size, level: u.level, strategy: u.strategy, rep: u.rep };
    for (;;) {
      const d = st.downloads.get(u.key) ?? { attempts: 0, ok: false };
      if (d.ok || d.attempts >= s.design.attempts) break;
      const attempt = d.attempts + 1;
      const row = (r: { ok: boolean; ms: number; bytes?: number; error?: string }) => s.journal.append({ ...base, attempt, ...r, at: now() });
      try {
        const a = await runner.download(
          {
            op: 'download',
            id: `${u.key}/${attempt}`,
            reference: up.reference!,
            endpoint: s.design.endpoint,
            // Level 0 has no parity chunks, so no strategy has anything to choose from: the op
            // sends none (bee-js cannot even send NONE, its 0), and the row keeps the cell's NONE.
            ...(u.level > 0 ? { strategy: u.strategy } : {}),
            ...(s.design.fallback !== undefined ? { fallback: s.design.fallback } : {}),
            timeout_ms: timeoutMs,
          },
          opDeadline(timeoutMs),
        );
        if (!a.ok) row({ ok: false, ms: a.ms ?? 0, error: a.error });
        else if (a.sha256.toLowerCase() !== up.sha256 || a.bytes !== u.size)
          row({
            ok: false,
            ms: a.ms,
            bytes: a.bytes,
            error: `content mismatch: sha256 ${a.sha256.toLowerCase()} of ${a.bytes} bytes, expected ${up.sha256} of ${u.size}`,
          });
        else row({ ok: true, ms: a.ms, bytes: a.bytes });
      } catch (e) {
        if (!(e instanceof RunnerHungError)) throw e;
        row({ ok: false, ms: opDeadline(timeoutMs).ms, error: e.message });
      }
    }
    progress(s, 'downloads (units)', ++n, todo.length, 50);
  }
  phase(s, 'download', 'done');
}

export { RunnerError };
