// Runs the bundled action (dist/index.js) the way GitHub's runner does: `node dist/index.js` in the
// workspace, inputs as INPUT_<NAME> variables, the event payload in a file named by
// GITHUB_EVENT_PATH, and file commands (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY) read back afterwards.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const DIST = join(ROOT, 'dist', 'index.js');

export interface ActionRun {
  code: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  ms: number;
}

export interface RunOptions {
  inputs: Record<string, string>;
  eventName: string;
  payload: unknown;
  workspace: string;
  /** RUNNER_TEMP; reuse one per suite so worktrees and caches carry over between runs. */
  temp: string;
  repository: string;
  apiUrl?: string;
  workflow?: string;
  runId?: number;
  sha?: string;
  env?: Record<string, string>;
}

/** GitHub's naming: INPUT_ + the name upper-cased with spaces as underscores; hyphens are kept. */
export const inputVar = (name: string) => `INPUT_${name.replace(/ /g, '_').toUpperCase()}`;

/** Parses a GITHUB_OUTPUT file: `name<<DELIM\nvalue\nDELIM` blocks (and plain name=value lines). */
export function parseFileCommands(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const [, name, delim] = heredoc;
      const value: string[] = [];
      for (i++; i < lines.length && lines[i] !== delim; i++) value.push(lines[i]!);
      out[name!] = value.join('\n');
    } else if (line.includes('=')) {
      out[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
    }
  }
  return out;
}

/** The environment the runner gives a step: this process's, minus anything GitHub-specific. */
function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || /^(GITHUB_|INPUT_|ACTIONS_|RUNNER_|STATE_)/.test(k)) continue;
    env[k] = v;
  }
  return env;
}

export async function runAction(o: RunOptions): Promise<ActionRun> {
  mkdirSync(o.temp, { recursive: true });
  const files = mkdtempSync(join(o.temp, 'step-'));
  const eventPath = join(files, 'event.json');
  const outputPath = join(files, 'output');
  const summaryPath = join(files, 'step_summary');
  writeFileSync(eventPath, JSON.stringify(o.payload, null, 2));
  writeFileSync(outputPath, '');
  writeFileSync(summaryPath, '');
  const env: Record<string, string> = {
    ...baseEnv(),
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: o.eventName,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_OUTPUT: outputPath,
    GITHUB_STEP_SUMMARY: summaryPath,
    GITHUB_REPOSITORY: o.repository,
    GITHUB_REPOSITORY_OWNER: o.repository.split('/')[0]!,
    GITHUB_WORKSPACE: o.workspace,
    GITHUB_WORKFLOW: o.workflow ?? 'bench',
    GITHUB_RUN_ID: String(o.runId ?? 4242),
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_API_URL: o.apiUrl ?? 'http://127.0.0.1:9',
    GITHUB_ACTOR: 'octocat',
    ...(o.sha ? { GITHUB_SHA: o.sha } : {}),
    RUNNER_TEMP: o.temp,
    RUNNER_OS: 'Linux',
    RUNNER_ARCH: 'X64',
    ...o.env,
  };
  for (const [k, v] of Object.entries(o.inputs)) env[inputVar(k)] = v;
  const started = performance.now();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [DIST], { cwd: o.workspace, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      resolvePromise({
        code: code ?? -1,
        stdout,
        stderr,
        outputs: parseFileCommands(readFileSync(outputPath, 'utf8')),
        summary: readFileSync(summaryPath, 'utf8'),
        ms: performance.now() - started,
      });
    });
  });
}

export const tmp = (prefix: string) => mkdtempSync(join(process.env.TMPDIR ?? '/tmp', `bee-bench-${prefix}-`));
