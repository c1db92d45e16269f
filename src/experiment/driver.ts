// The runner driver: one `<runner> ops --bee-url URL --batch-id HEX` process per node, fed one JSON
// op per line and answering one JSON line per op, in order (the runners' ops protocol). Every line
// it answers is checked with zod. A runner that does not answer within the op's deadline is killed
// with its process group and started again on the next op (the caller journals the attempt as
// failed); a runner that exits, or answers something else than the protocol, is an error naming
// the runner, the node and the last lines it logged, raised before anything is journaled for that op.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import type { RunnerCommand } from '../build/builder.js';
import { childEnv } from '../child/env.js';

export const ReadySchema = z.object({
  ready: z.literal(true),
  runner: z.enum(['js', 'go', 'rs']),
  client: z.object({ name: z.string(), version: z.string() }),
});
export type Ready = z.infer<typeof ReadySchema>;

const hex = z.string().regex(/^[0-9a-f]+$/i);
const failed = z.object({ id: z.string().nullable(), ok: z.literal(false), ms: z.number().nonnegative().optional(), error: z.string() });

export const UploadAnswerSchema = z.union([
  z.object({ id: z.string(), ok: z.literal(true), ms: z.number().nonnegative(), reference: hex, tag: z.number().int().optional() }),
  failed,
]);
export const DownloadAnswerSchema = z.union([
  z.object({ id: z.string(), ok: z.literal(true), ms: z.number().nonnegative(), bytes: z.number().int().nonnegative(), sha256: hex }),
  failed,
]);
export type UploadAnswer = z.infer<typeof UploadAnswerSchema>;
export type DownloadAnswer = z.infer<typeof DownloadAnswerSchema>;

export interface UploadOp {
  op: 'upload';
  id: string;
  size: number;
  seed: string;
  level?: number;
  deferred?: boolean;
  endpoint?: 'bytes' | 'bzz';
}
export interface DownloadOp {
  op: 'download';
  id: string;
  reference: string;
  endpoint?: 'bytes' | 'bzz';
  strategy?: string;
  fallback?: boolean;
  timeout_ms: number;
}

/** How long an op may take before its runner counts as hung, and how that was worked out. */
export interface Deadline {
  ms: number;
  why: string;
}

/** The op's own timeout plus a margin for the runner (a quarter of the timeout, at least 10 s). */
export function opDeadline(timeoutMs: number): Deadline {
  const margin = Math.max(10_000, timeoutMs / 4);
  return { ms: timeoutMs + margin, why: `the ${timeoutMs / 1000} s timeout and a ${margin / 1000} s margin` };
}

/** The runner failed as a process (exited, spoke outside the protocol): the run stops here. */
export class RunnerError extends Error {}
/** The runner did not answer an op in time; it was killed and is started again on the next op. */
export class RunnerHungError extends Error {}

export interface OpsRunnerOptions {
  runner: string;
  node: string;
  beeUrl: string;
  batchId: string;
  /** How long the ready line may take (a cold Node start, a JIT). */
  readyTimeoutMs?: number;
  log?: (line: string) => void;
}

const TAIL = 20;
const trim = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}…` : s);

interface Pending {
  id: string;
  resolve: (line: unknown) => void;
  reject: (e: Error) => void;
}

/** One live ops process. */
class OpsProcess {
  readonly tail: string[] = [];
  private pending: Pending[] = [];
  private exited?: string;
  readonly ready: Promise<Ready>;
  private readyHandlers?: { resolve: (r: Ready) => void; reject: (e: Error) => void };

  constructor(
    private readonly child: ChildProcess,
    private readonly name: string,
    log: (line: string) => void,
  ) {
    this.ready = new Promise((resolve, reject) => (this.readyHandlers = { resolve, reject }));
    createInterface({ input: child.stderr!, crlfDelay: Infinity }).on('line', (l) => {
      this.tail.push(l);
      if (this.tail.length > TAIL) this.tail.shift();
      log(`${name}: ${l}`);
    });
    createInterface({ input: child.stdout!, crlfDelay: Infinity }).on('line', (l) => this.onLine(l));
    child.on('error', (e) => this.fail(`cannot start it: ${e.message}`));
    // A runner that exits closes its stdin: the exit is the error reported, not the broken pipe.
    child.stdin!.on('error', () => {});
    child.on('exit', (code, signal) => this.fail(signal ? `it was killed by ${signal}` : `it exited with code ${code}`));
  }

  private protocolError(why: string): void {
    this.fail(`it broke the ops protocol: ${why}`);
    this.kill();
  }

  private onLine(line: string): void {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      return this.protocolError(`a line that is not JSON: ${trim(line)}`);
    }
    if (this.readyHandlers) {
      const r = ReadySchema.safeParse(json);
      if (!r.success) return this.protocolError(`the first line is not {"ready":true,"runner":…,"client":{…}}: ${trim(line)}`);
      this.readyHandlers.resolve(r.data);
      this.readyHandlers = undefined;
      return;
    }
    const p = this.pending.shift();
    if (!p) return this.protocolError(`an answer to no op: ${trim(line)}`);
    const id = (json as { id?: unknown } | null)?.id;
    if (id !== p.id && id !== null) return this.protocolError(`answered id ${JSON.stringify(id)} where ${p.id} was next: ${trim(line)}`);
    p.resolve(json);
  }

  private fail(why: string): void {
    if (this.exited) return;
    this.exited = why;
    const e = new RunnerError(`${this.name}: ${why}${this.tail.length ? `; its last log lines:\n  ${this.tail.join('\n  ')}` : ''}`);
    this.readyHandlers?.reject(e);
    this.readyHandlers = undefined;
    for (const p of this.pending.splice(0)) p.reject(e);
  }

  get gone(): string | undefined {
    return this.exited;
  }

  send(op: { id: string }, deadlineMs: number, why: string): Promise<unknown> {
    if (this.exited) return Promise.reject(new RunnerError(`${this.name}: ${this.exited}`));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.exited = `did not answer ${op.id} within ${deadlineMs} ms`;
        const e = new RunnerHungError(`${this.name} did not answer within ${deadlineMs} ms (${why}): killed and started again`);
        for (const p of this.pending.splice(0)) p.reject(e);
        this.kill();
      }, deadlineMs);
      this.pending.push({
        id: op.id,
        resolve: (v) => {
          clearTimeout(timer);
          resolve(v);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      this.child.stdin!.write(`${JSON.stringify(op)}\n`);
    });
  }

  kill(): void {
    try {
      if (this.child.pid) process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      this.child.kill('SIGKILL');
    }
  }

  /** EOF on stdin; the runner exits 0. Bounded: killed after `graceMs`. */
  async close(graceMs = 5000): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const done = new Promise<void>((r) => this.child.once('exit', () => r()));
    this.child.stdin!.end();
    const timer = setTimeout(() => this.kill(), graceMs);
    await done;
    clearTimeout(timer);
  }
}

/** A runner's ops process for one node, started again after a hang. */
export class OpsRunner {
  private proc?: OpsProcess;
  private started = 0;
  client?: Ready['client'];

  constructor(
    private readonly cmd: RunnerCommand,
    private readonly o: OpsRunnerOptions,
  ) {}

  private get name(): string {
    return `runner ${this.o.runner} (ops, node ${this.o.node})`;
  }

  /** Starts the process if none is live; resolves with its ready line. */
  async start(): Promise<Ready> {
    if (this.proc && !this.proc.gone) return this.proc.ready;
    const [exe, ...prefix] = this.cmd.argv;
    if (!exe) throw new RunnerError(`${this.name}: empty runner command`);
    const child = spawn(exe, [...prefix, 'ops', '--bee-url', this.o.beeUrl, '--batch-id', this.o.batchId], {
      cwd: this.cmd.cwd,
      env: childEnv({ ...this.cmd.env }),
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    this.started++;
    const proc = new OpsProcess(child, this.name, this.o.log ?? (() => {}));
    this.proc = proc;
    const limit = this.o.readyTimeoutMs ?? 60_000;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        proc.kill();
        reject(
          new RunnerError(`${this.name}: no ready line within ${limit} ms${proc.tail.length ? `; its last log lines:\n  ${proc.tail.join('\n  ')}` : ''}`),
        );
      }, limit);
    });
    try {
      const ready = await Promise.race([proc.ready, timeout]);
      if (ready.runner !== this.o.runner) throw new RunnerError(`${this.name}: says it is runner ${ready.runner}`);
      this.client = ready.client;
      return ready;
    } finally {
      clearTimeout(timer);
    }
  }

  /** How many processes were started (1 + restarts after hangs). */
  get starts(): number {
    return this.started;
  }

  private async ask<T>(op: { id: string }, schema: z.ZodType<T>, d: Deadline): Promise<T> {
    await this.start();
    const line = await this.proc!.send(op, d.ms, d.why);
    const r = schema.safeParse(line);
    if (!r.success) {
      this.proc!.kill();
      throw new RunnerError(
        `${this.name}: its answer to ${op.id} is not the protocol's: ${trim(JSON.stringify(line))} (${z.prettifyError(r.error).replace(/\n/g, '; ')})`,
      );
    }
    return r.data;
  }

  upload(op: UploadOp, d: Deadline): Promise<UploadAnswer> {
    return this.ask(op, UploadAnswerSchema, d);
  }

  download(op: DownloadOp, d: Deadline): Promise<DownloadAnswer> {
    return this.ask(op, DownloadAnswerSchema, d);
  }

  async close(): Promise<void> {
    await this.proc?.close();
    this.proc = undefined;
  }

  /** Kills the process now (a signal handler's path). */
  kill(): void {
    this.proc?.kill();
  }
}
