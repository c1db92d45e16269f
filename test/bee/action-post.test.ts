// The action's post step (dist/post.js): removes the container named in the step state that the
// main step saved before `docker run`, with the docker found on PATH (here the fake one).
import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { containerName, dockerRunArgs } from '../../src/bee/docker.js';
import { freePort } from '../../src/bee/dev-node.js';
import { alive, fakeDocker, startedBee } from './fakes.js';

function post(dockerDir: string, state: Record<string, string>) {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(STATE_|GITHUB_)/.test(k)) env[k] = v;
  return spawnSync(process.execPath, ['--import', 'tsx', 'src/action-post.ts'], {
    env: { ...env, PATH: `${dockerDir}:${process.env.PATH}`, ...state },
    encoding: 'utf8',
  });
}

describe('action post step', () => {
  it('removes the dev node container left by the main step', async () => {
    const d = fakeDocker();
    const name = containerName();
    execFileSync(d.exe, dockerRunArgs({ name, hostPort: await freePort() }));
    const pid = await startedBee(d);
    expect(alive(pid)).toBe(true);
    const r = post(d.dir, { 'STATE_bee-container': name });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`bee: removed container ${name}`);
    expect(d.dockerCalls().at(-1)).toEqual(['rm', '--force', name]);
    expect(alive(pid)).toBe(false);
  });

  it('accepts a container the main step already removed, and does nothing without one', () => {
    const d = fakeDocker();
    expect(post(d.dir, { 'STATE_bee-container': 'bee-bench-dev-gone' }).stdout).toContain('bee: container bee-bench-dev-gone already removed');
    expect(post(d.dir, {}).status).toBe(0);
    expect(d.dockerCalls()).toEqual([['rm', '--force', 'bee-bench-dev-gone']]);
  });
});
