// The dev node's lifecycle for real, with a fake `bee` (and a fake `docker`) serving the endpoints
// over loopback: start, /health, batch purchase, stop after the work, after a failure, on a
// health timeout, and on cancellation by SIGINT/SIGTERM in a separate process.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { homedir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { withDevNode } from '../../src/bee/session.js';
import { BEE_IMAGE } from '../../src/bee/docker.js';
import { devNodeEnv, type DevNodeOptions } from '../../src/bee/dev-node.js';
import { alive, beePid, fakeBee, fakeDocker, type Fake } from './fakes.js';

const quiet: DevNodeOptions['log'] = () => undefined;
const binary = (f: Fake, extra: Partial<DevNodeOptions> = {}): DevNodeOptions => ({ how: { kind: 'binary', path: f.exe }, log: quiet, ...extra });

async function healthy(url: string): Promise<boolean> {
  try {
    return (await fetch(new URL('/health', url))).ok;
  } catch {
    return false;
  }
}

describe('dev node from a bee executable (--bee-binary)', () => {
  it('starts it on loopback, waits for /health, buys a usable batch and stops it after the work', async () => {
    const f = fakeBee();
    const seen = await withDevNode(binary(f), async (node) => {
      expect(await healthy(node.url)).toBe(true);
      return node;
    });
    expect(seen.url).toMatch(/^http:\/\/127\.0\.0\.1:[0-9]+$/);
    expect(seen.batchId).toMatch(/^[0-9a-f]{64}$/);
    const events = f.events();
    const start = events.find((e) => e.event === 'start')!;
    expect(start.argv).toEqual(['dev', `--api-addr=127.0.0.1:${new URL(seen.url).port}`]);
    // Its own HOME (no ~/.bee.yaml of the user's) and no BEE_* settings, removed with the node.
    expect(start.home).not.toBe(homedir());
    expect(start.beeEnv).toEqual([]);
    expect(existsSync(start.home!)).toBe(false);
    const requests = events.filter((e) => e.event === 'request').map((e) => `${e.method} ${e.path}`);
    expect(requests).toContain('POST /stamps/10000000000/24');
    // Usable only on the second look: the batch is handed out after the node says so, not before.
    expect(requests.filter((r) => r === `GET /stamps/${seen.batchId}`)).toHaveLength(2);
    expect(events.at(-2)).toMatchObject({ event: 'signal', signal: 'SIGTERM' });
    expect(alive(start.pid)).toBe(false);
    expect(await healthy(seen.url)).toBe(false);
  });

  it('gives up on /health after the bounded timeout, with the log tail, and stops the node', async () => {
    const f = fakeBee('never-healthy');
    const t0 = Date.now();
    await expect(withDevNode(binary(f, { healthTimeoutMs: 1_500 }), async () => 'unreached')).rejects.toThrow(
      /not healthy: no success within 2 s \(last: GET \/health: HTTP 503[\s\S]*last lines of the Bee log[\s\S]*fake bee dev \(never-healthy\)/,
    );
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(alive(beePid(f))).toBe(false);
  });

  it('fails at once when the executable exits instead of serving', async () => {
    const f = fakeBee('exit-early');
    const t0 = Date.now();
    await expect(withDevNode(binary(f, { healthTimeoutMs: 30_000 }), async () => 'unreached')).rejects.toThrow(/exited with code 3/);
    expect(Date.now() - t0).toBeLessThan(10_000);
  });

  it("fails with the node's answer when the batch cannot be bought, and stops the node", async () => {
    const f = fakeBee('no-batch');
    await expect(withDevNode(binary(f), async () => 'unreached')).rejects.toThrow(/POST \/stamps\/10000000000\/24 answered HTTP 500/);
    expect(alive(beePid(f))).toBe(false);
  });

  it('stops the node when the work fails, and passes the failure on', async () => {
    const f = fakeBee();
    await expect(
      withDevNode(binary(f), async () => {
        throw new Error('runner crashed');
      }),
    ).rejects.toThrow('runner crashed');
    expect(alive(beePid(f))).toBe(false);
  });

  it('names a missing executable', async () => {
    await expect(withDevNode(binary({ ...fakeBee(), exe: '/nonexistent/bee' }), async () => 'unreached')).rejects.toThrow(
      /--bee-binary \/nonexistent\/bee: no such file/,
    );
  });
});

describe('dev node environment', () => {
  it('gives the node its own HOME, no BEE_* settings and no credentials', () => {
    expect(
      devNodeEnv('/var/lib/bee-bench-home', {
        PATH: '/usr/bin',
        HOME: '/root',
        BEE_API_ADDR: '0.0.0.0:1633',
        bee_verbosity: '5',
        GITHUB_TOKEN: 'ghs_0123456789abcdef',
        INPUT_CASES: 'cpu.*',
      }),
    ).toEqual({ PATH: '/usr/bin', HOME: '/var/lib/bee-bench-home' });
  });
});

describe('dev node in Docker (against a fake docker CLI)', () => {
  it('runs the image in argv form on 127.0.0.1, then removes the container', async () => {
    const d = fakeDocker();
    const node = await withDevNode({ how: { kind: 'docker', docker: d.exe }, log: quiet }, async (n) => {
      expect(await healthy(n.url)).toBe(true);
      return n;
    });
    const [run, rm] = d.dockerCalls();
    const name = run![run!.indexOf('--name') + 1]!;
    expect(run).toEqual([
      'run',
      '-d',
      '--rm',
      '--name',
      name,
      '--label',
      'org.bee-bench.dev-node=1',
      '--publish',
      `127.0.0.1:${new URL(node.url).port}:1633`,
      BEE_IMAGE,
      'dev',
      '--api-addr=:1633',
    ]);
    expect(rm).toEqual(['rm', '--force', name]);
    expect(alive(beePid(d))).toBe(false);
  });

  it('removes the container when the node never becomes healthy', async () => {
    const d = fakeDocker();
    const names: string[] = [];
    await expect(
      withDevNode({ how: { kind: 'docker', docker: d.exe }, log: quiet, healthTimeoutMs: 1, onContainer: (n) => names.push(n) }, async () => 'unreached'),
    ).rejects.toThrow(/not healthy/);
    expect(d.dockerCalls().map((c) => c[0])).toEqual(['run', 'logs', 'rm']);
    expect(d.dockerCalls()[2]).toEqual(['rm', '--force', names[0]]);
  });
});

describe('cancellation', () => {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    for (const kind of ['binary', 'docker'] as const) {
      it(`${signal} stops the ${kind} node before the process exits with ${code}`, async () => {
        const f = kind === 'binary' ? fakeBee() : fakeDocker();
        const child = spawn(process.execPath, ['--import', 'tsx', 'test/bee/hold-node.ts', kind, f.exe], { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        child.stderr.on('data', (d) => (err += String(d)));
        await new Promise<void>((resolve, reject) => {
          child.stdout.on('data', (d) => {
            out += String(d);
            if (out.includes('ready')) resolve();
          });
          child.once('exit', () => reject(new Error(`hold-node exited early: ${err}`)));
        });
        const pid = beePid(f);
        expect(alive(pid)).toBe(true);
        child.kill(signal);
        const [exitCode] = await once(child, 'exit');
        expect(exitCode).toBe(code);
        expect(alive(pid)).toBe(false);
        expect(err).toContain(`${signal} received: stopping the dev node`);
        if (kind === 'docker') expect(f.dockerCalls().at(-1)?.[0]).toBe('rm');
      });
    }
  }
});
