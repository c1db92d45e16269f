// Real git through child_process.execFile (no shell): every command gets the committer identity
// and settings that make it independent of the machine's git config (no signing, no hooks, no
// prompts). A token for the remote reaches git as an `http.<url>.extraheader` through GIT_CONFIG_*
// variables of that git process only (remoteAuthEnv), never in argv or a remote URL, which the
// process list and git's own messages show. A URL given with credentials in it is still redacted
// from errors.
import { execFile } from 'node:child_process';
import { childEnv, registerSecret } from '../child/env.js';

export interface Identity {
  name: string;
  email: string;
}

export const DEFAULT_IDENTITY: Identity = { name: 'bee-bench', email: 'bee-bench@users.noreply.github.com' };

/** Hides credentials in URLs (https://x-access-token:TOKEN@github.com/... -> https://***@github.com/...). */
export function redact(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/\s@'"]+@/gi, '$1***@');
}

export class GitError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly code: number | string | null,
    readonly stderr: string,
  ) {
    super(`git ${args[0] ?? ''} failed (${code ?? 'signal'}): ${redact(stderr.trim().split('\n').slice(-4).join(' | '))}`);
    this.name = 'GitError';
  }
}

export interface Git {
  /** Runs git in the clone; resolves to stdout, rejects with GitError. */
  (args: readonly string[], opts?: { input?: string; allowFail?: false }): Promise<string>;
  (args: readonly string[], opts: { input?: string; allowFail: true }): Promise<{ ok: boolean; stdout: string; stderr: string }>;
  readonly cwd: string;
}

/** Credentials for one HTTP(S) remote: sent as basic auth (user x-access-token, as GitHub expects) to that URL only. */
export interface RemoteAuth {
  url: string;
  token: string;
}

/**
 * GIT_CONFIG_* variables that make git send `AUTHORIZATION: basic <user:token>` to auth.url and
 * nothing under any other URL (http.<url>.extraheader), appended after the GIT_CONFIG_* entries
 * `base` already has. The encoded value is registered as a secret, so no other child sees it.
 */
export function remoteAuthEnv(auth: RemoteAuth, base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const basic = Buffer.from(`x-access-token:${auth.token}`).toString('base64');
  registerSecret(basic);
  const count = Number(base.GIT_CONFIG_COUNT ?? 0);
  const n = Number.isInteger(count) && count > 0 ? count : 0;
  return {
    GIT_CONFIG_COUNT: String(n + 1),
    [`GIT_CONFIG_KEY_${n}`]: `http.${auth.url}.extraheader`,
    [`GIT_CONFIG_VALUE_${n}`]: `AUTHORIZATION: basic ${basic}`,
  };
}

/** A git bound to one working directory and identity; with auth, it authenticates to that remote. */
export function gitIn(cwd: string, identity: Identity = DEFAULT_IDENTITY, auth?: RemoteAuth): Git {
  const config = [
    '-c',
    `user.name=${identity.name}`,
    '-c',
    `user.email=${identity.email}`,
    '-c',
    'commit.gpgsign=false',
    '-c',
    'core.hooksPath=/dev/null',
    '-c',
    'core.autocrlf=false',
    '-c',
    'advice.detachedHead=false',
  ];
  // After childEnv: it would drop the header variable, whose value is a registered secret.
  // childEnv drops inherited GIT_CONFIG_* entries, so the header is numbered from that base.
  const base = childEnv({ GIT_TERMINAL_PROMPT: '0', GIT_EDITOR: 'true', LC_ALL: 'C' });
  const env = { ...base, ...(auth ? remoteAuthEnv(auth, base) : {}) };
  type Outcome = string | { ok: boolean; stdout: string; stderr: string };
  const run = (args: readonly string[], opts: { input?: string; allowFail?: boolean } = {}): Promise<Outcome> =>
    new Promise((resolve, reject) => {
      const child = execFile('git', [...config, ...args], { cwd, env, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' }, (err, stdout, stderr) => {
        if (opts.allowFail) return resolve({ ok: !err, stdout, stderr });
        if (err) return reject(new GitError(args, (err as NodeJS.ErrnoException & { code?: number | string }).code ?? null, stderr || err.message));
        resolve(stdout);
      });
      if (opts.input !== undefined) child.stdin?.end(opts.input);
    });
  return Object.assign(run, { cwd }) as Git;
}
