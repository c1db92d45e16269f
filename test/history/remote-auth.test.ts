// The history token reaches git only as an http.<url>.extraheader in the environment: pushes and
// fetches to a loopback smart-HTTP server that demands the header succeed, no git argv (logged by a
// PATH shim in front of the real git) carries the token or its encoding, and without the token, or
// for another URL, the server refuses.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendHistory, historyRemote, readHistory } from '../../src/action/history.js';
import type { FlowEnv } from '../../src/action/flow-steps.js';
import { gitIn } from '../../src/history/git.js';
import { writeHistory } from '../../src/history/store.js';
import { git, removeAll, smallRecord, smallResult, tempDir, tip } from './helpers.js';
import { serveGit, type HttpGitServer } from './http-git-server.js';

const TOKEN = 'ghs_historyTokenForTheTest0123';
const BASIC = Buffer.from(`x-access-token:${TOKEN}`).toString('base64');
const FAST = { baseMs: 40, maxMs: 600 };

const dirs: string[] = [];
let server: HttpGitServer;
let root: string;
let argvLog: string;
const savedPath = process.env.PATH;

beforeAll(async () => {
  root = tempDir('served', dirs);
  mkdirSync(join(root, 'owner'));
  await git(root, 'init', '-q', '--bare', 'owner/pages.git');
  const realGit = join(execFileSync('git', ['--exec-path'], { encoding: 'utf8' }).trim(), 'git');
  server = await serveGit(root, `basic ${BASIC}`, realGit);
  // Every git the code under test starts goes through this shim, which logs its argv.
  const shim = tempDir('shim', dirs);
  argvLog = join(shim, 'argv.log');
  writeFileSync(argvLog, '');
  writeFileSync(join(shim, 'git'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${argvLog}'\nexec '${realGit}' "$@"\n`);
  chmodSync(join(shim, 'git'), 0o755);
  process.env.PATH = `${shim}:${savedPath ?? ''}`;
});

afterAll(async () => {
  process.env.PATH = savedPath;
  await server.close();
  removeAll(dirs);
});

/** The argv lines logged since the last call; none may carry the credentials. */
function loggedArgv(): string[] {
  const lines = readFileSync(argvLog, 'utf8').split('\n').filter(Boolean);
  writeFileSync(argvLog, '');
  for (const line of lines) {
    expect(line).not.toContain(TOKEN);
    expect(line).not.toContain(BASIC);
  }
  return lines;
}

describe('history token as an HTTP header', () => {
  it('pushes with the header, never with the token in argv; refuses without it', async () => {
    const remote = `${server.base}/owner/pages.git`;
    const report = await writeHistory([smallRecord('js', 0)], { remote, token: TOKEN, workdir: tempDir('work', dirs), backoff: FAST });
    expect(report.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(await tip(join(root, 'owner/pages.git'))).toBe(report.commit);
    const argv = loggedArgv();
    expect(argv.some((l) => /\bpush\b/.test(l) && l.includes(remote) === false)).toBe(true); // push names the remote "origin"
    expect(argv.some((l) => l.includes(`remote add origin ${remote}`))).toBe(true);
    expect(server.refused).toBe(0);

    await expect(writeHistory([smallRecord('go', 1)], { remote, workdir: tempDir('work', dirs), backoff: FAST, maxAttempts: 1 })).rejects.toThrow(
      /cannot fetch gh-pages/,
    );
    await expect(
      writeHistory([smallRecord('go', 1)], { remote, token: 'ghs_someOtherToken99', workdir: tempDir('work', dirs), backoff: FAST, maxAttempts: 1 }),
    ).rejects.toThrow(/cannot fetch gh-pages/);
    expect(server.refused).toBeGreaterThanOrEqual(2);
    loggedArgv();
  });

  it('sends the header to the remote URL only', async () => {
    const other = `${server.base}/owner/pages.git`.replace('127.0.0.1', 'localhost');
    const scopedElsewhere = gitIn(tempDir('clone', dirs), undefined, { url: `${server.base}/owner/pages.git`, token: TOKEN });
    await expect(scopedElsewhere(['clone', '-q', '--', other, '.'])).rejects.toThrow(/git clone failed/);
    loggedArgv();
  });

  it("the action's publish and baseline read reach this repository with the token in the environment only", async () => {
    const saved = { server: process.env.GITHUB_SERVER_URL, ref: process.env.GITHUB_REF_NAME };
    process.env.GITHUB_SERVER_URL = server.base;
    process.env.GITHUB_REF_NAME = 'main';
    try {
      const checkout = tempDir('checkout', dirs);
      await git(checkout, 'init', '-q');
      await git(checkout, 'commit', '-q', '--allow-empty', '-m', 'measured commit');
      const env = {
        inputs: { token: TOKEN, path: checkout, specFile: 'spec/bench-spec.json', historyBranch: 'gh-pages', historyFolder: 'bench', historyMaxRuns: 50 },
        ctx: { repo: { owner: 'owner', repo: 'pages' }, temp: tempDir('temp', dirs), eventName: 'push', runId: '77' },
      } as unknown as FlowEnv;
      expect(historyRemote(env)).toEqual({ remote: `${server.base}/owner/pages.git`, token: TOKEN });
      const lines: string[] = [];
      const report = await appendHistory(env, [smallResult('go', 3)], (l) => lines.push(l));
      expect(report.added).toHaveLength(1);
      const records = await readHistory(env, (l) => lines.push(l));
      expect(records.filter((r) => r.runner === 'go' && r.run.id === '77')).toHaveLength(1);
      expect(lines.join('\n')).not.toMatch(/no gh-pages branch|invalid/);
      const argv = loggedArgv();
      expect(argv.some((l) => l.includes(`clone --quiet --depth 1 --branch gh-pages -- ${server.base}/owner/pages.git`))).toBe(true);
      expect(argv.some((l) => /\bpush\b/.test(l))).toBe(true);
    } finally {
      for (const [name, value] of [
        ['GITHUB_SERVER_URL', saved.server],
        ['GITHUB_REF_NAME', saved.ref],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});
