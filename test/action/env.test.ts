// The action's credentials never reach code under test: the bundled action builds a bee-js
// checkout whose own build script writes its environment to a file and whose module writes it
// again when the runner imports it, and neither file may hold the token, the runtime or OIDC
// tokens, the cache URL, any INPUT_* variable, or a variable the workflow filled with the token.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { childEnv } from '../../src/child/env.js';
import { git, makeBeeJsRepo } from './client-repo.js';
import { pushEvent } from './events.js';
import { runAction, tmp } from './harness.js';

const TOKEN = 'ghs_env_test_token_0123456789';
const dir = tmp('env');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A bee-js checkout whose build script and module each write the environment they got. */
function dumpingBeeJs(): { checkout: string; buildDump: string; runDump: string } {
  const buildDump = join(dir, 'build-env.json');
  const runDump = join(dir, 'run-env.json');
  const checkout = makeBeeJsRepo(dir, (c) => {
    writeFileSync(
      join(c, 'build.cjs'),
      `${readFileSync(join(c, 'build.cjs'), 'utf8')}fs.writeFileSync(${JSON.stringify(buildDump)}, JSON.stringify(process.env));\n`,
    );
    const entry = join(c, 'dist', 'mjs', 'index.js');
    writeFileSync(
      entry,
      `import { writeFileSync as dumpEnv } from 'node:fs';\ndumpEnv(${JSON.stringify(runDump)}, JSON.stringify(process.env));\n${readFileSync(entry, 'utf8')}`,
    );
  });
  return { checkout, buildDump, runDump };
}

const CREDENTIALS = {
  ACTIONS_RUNTIME_TOKEN: 'runtime-token-abcdef0123',
  ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'oidc-token-abcdef0123',
  ACTIONS_ID_TOKEN_REQUEST_URL: 'http://127.0.0.1:9/oidc',
  ACTIONS_CACHE_URL: 'http://127.0.0.1:9/cache/',
  GITHUB_TOKEN: TOKEN,
  DEPLOY_KEY_COPY: `Bearer ${TOKEN}`,
};

function leaks(env: Record<string, string>): string[] {
  return Object.entries(env)
    .filter(
      ([k, v]) => k.startsWith('INPUT_') || k in CREDENTIALS || v.includes(TOKEN) || Object.values(CREDENTIALS).some((c) => c.length > 20 && v.includes(c)),
    )
    .map(([k]) => k);
}

describe('child processes get no credentials', () => {
  it('childEnv drops the action inputs, runtime tokens and any value holding a token; keeps the rest', () => {
    const env = childEnv(
      { EXTRA: '1' },
      { PATH: '/usr/bin', HOME: '/home/runner', 'INPUT_GITHUB-TOKEN': TOKEN, INPUT_CASES: 'cpu.*', GITHUB_SHA: 'abc', ...CREDENTIALS },
    );
    expect(env).toEqual({ PATH: '/usr/bin', HOME: '/home/runner', GITHUB_SHA: 'abc', EXTRA: '1' });
  });

  it('childEnv drops what steers the job: file commands, and git configuration or askpass from the environment', () => {
    const steering = {
      GITHUB_ENV: '/runner/_temp/_runner_file_commands/set_env_1',
      GITHUB_PATH: '/runner/_temp/add_path_1',
      GITHUB_OUTPUT: '/runner/_temp/set_output_1',
      GITHUB_STATE: '/runner/_temp/save_state_1',
      GITHUB_STEP_SUMMARY: '/runner/_temp/step_summary_1',
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'http.https://github.com/.extraheader',
      GIT_CONFIG_VALUE_0: 'AUTHORIZATION: basic eA==',
      GIT_CONFIG_PARAMETERS: "'credential.helper'='store'",
      GIT_ASKPASS: '/usr/bin/askpass',
    };
    expect(childEnv({}, { PATH: '/usr/bin', GITHUB_WORKSPACE: '/w', ...steering })).toEqual({ PATH: '/usr/bin', GITHUB_WORKSPACE: '/w' });
  });

  it('a client build script and the runner importing the client see none of them (bundled action, push run)', { timeout: 600_000 }, async () => {
    const { checkout, buildDump, runDump } = dumpingBeeJs();
    const head = git(checkout, 'rev-parse', 'HEAD');
    const run = await runAction({
      eventName: 'push',
      payload: pushEvent('ethersphere/bee-js', 'refs/heads/main', head, head),
      workspace: checkout,
      temp: join(dir, 'runner-temp'),
      repository: 'ethersphere/bee-js',
      sha: head,
      inputs: { 'github-token': TOKEN, cases: 'cpu.harness.noop', profile: 'quick', 'build-command': 'npm run build:node' },
      env: { ...CREDENTIALS, BEE_BENCH_CACHE: join(dir, 'cache') },
    });
    expect(existsSync(buildDump), run.stdout.slice(-3000)).toBe(true);
    expect(existsSync(runDump), run.stdout.slice(-3000)).toBe(true);
    const build = JSON.parse(readFileSync(buildDump, 'utf8')) as Record<string, string>;
    const runner = JSON.parse(readFileSync(runDump, 'utf8')) as Record<string, string>;
    // The dumps are real environments (PATH passes), just without credentials.
    expect(build.PATH).toContain(process.env.PATH);
    expect(runner.GITHUB_REPOSITORY).toBe('ethersphere/bee-js');
    expect(leaks(build)).toEqual([]);
    expect(leaks(runner)).toEqual([]);
    // The token is masked in the log as well.
    expect(run.stdout).toContain(`::add-mask::${TOKEN}`);
  });
});
