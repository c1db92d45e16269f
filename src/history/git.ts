// Real git through child_process.execFile (no shell): every command gets the committer identity
// and settings that make it independent of the machine's git config (no signing, no hooks, no
// prompts). The remote URL may carry a token, so errors name the command but never the URL.
import { execFile } from 'node:child_process';
import { childEnv } from '../child/env.js';

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

/** A git bound to one working directory and identity. */
export function gitIn(cwd: string, identity: Identity = DEFAULT_IDENTITY): Git {
  const config = [
    '-c', `user.name=${identity.name}`,
    '-c', `user.email=${identity.email}`,
    '-c', 'commit.gpgsign=false',
    '-c', 'core.hooksPath=/dev/null',
    '-c', 'core.autocrlf=false',
    '-c', 'advice.detachedHead=false',
  ];
  const env = childEnv({ GIT_TERMINAL_PROMPT: '0', GIT_EDITOR: 'true', LC_ALL: 'C' });
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
