// The bundled action with `bee: dev` on a push: it starts the dev node through docker (the fake
// docker CLI on PATH), saves the container's name for the post step, hands URL and batch to the
// runner, and removes the container when the flow ends.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeBeeRsRepo, shallowCheckout } from '../action/client-repo.js';
import { pushEvent } from '../action/events.js';
import { ROOT, runAction, tmp } from '../action/harness.js';
import { alive, beePid, fakeDocker } from './fakes.js';
import { rmSync } from 'node:fs';

const REPO = 'ethswarm-tools/bee-rs';
const dir = tmp('action-bee');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('action input bee: dev', () => {
  it(
    'runs the net cases against a dev node it starts in Docker and removes afterwards',
    async () => {
      const repo = makeBeeRsRepo(dir);
      const ws = shallowCheckout(repo.origin, repo.main, join(dir, 'ws'));
      const d = fakeDocker();
      const r = await runAction({
        eventName: 'push',
        payload: pushEvent(REPO, 'refs/heads/main', repo.forkPoint, repo.main),
        workspace: ws,
        sha: repo.main,
        temp: join(dir, 'runner-temp'),
        repository: REPO,
        env: { BEE_BENCH_CACHE: join(ROOT, '.bee-bench', 'cache'), PATH: `${d.dir}:${process.env.PATH}` },
        inputs: { bee: 'dev', cases: 'net.stamps.list', 'github-token': 'ghs_write' },
      });
      expect(r.code, r.stdout.slice(-3000)).toBe(0);
      const [run, rm] = d.dockerCalls();
      const name = run![run!.indexOf('--name') + 1]!;
      expect(r.stdout).toMatch(new RegExp(`save-state name=bee-container::${name}`));
      expect(r.stdout).toMatch(/bee: dev node 2\.8\.0-fake at http:\/\/127\.0\.0\.1:[0-9]+/);
      // The runner called the node: GET /stamps is the case's one call.
      expect(d.events().some((e) => e.event === 'request' && e.path === '/stamps')).toBe(true);
      expect(rm).toEqual(['rm', '--force', name]);
      expect(alive(beePid(d))).toBe(false);
    },
    20 * 60_000,
  );
});
