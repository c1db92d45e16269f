// `bee-bench run --bee-binary`: the CLI starts the dev node, hands its URL and batch to the runner,
// and removes the node when the run ends; bad combinations of the Bee flags are usage errors.
import { accessSync, constants, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli.js';
import { alive, beePid, fakeBee } from './fakes.js';

async function cli(args: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((stderr += String(s)), true));
  const o = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    return { code: await main(args), stderr };
  } finally {
    e.mockRestore();
    o.mockRestore();
  }
}

describe('bee-bench ab --base-bee --head-bee', () => {
  it('rejects a half-given, mixed or malformed node A/B before starting anything', async () => {
    const ab = (...a: string[]) => cli(['ab', '--runner', 'rs', ...a]);
    expect(await ab('--base-bee', '/usr/bin/true')).toMatchObject({ code: 2, stderr: expect.stringMatching(/needs both --base-bee and --head-bee/) });
    expect(await ab('--base-bee', '/usr/bin/true', '--head-bee', '/usr/bin/true', '--base', 'registry')).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/one client build against both nodes: drop --base and --head/),
    });
    expect(await ab('--base-bee', '/usr/bin/true', '--head-bee', 'http://127.0.0.1:1633')).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--head-bee http:\/\/127\.0\.0\.1:1633: a running node needs its postage batch: give --head-batch-id/),
    });
    expect(await ab('--base-bee', '/no/such/bee', '--head-bee', '/usr/bin/true')).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--base-bee \/no\/such\/bee: no such file/),
    });
    expect(await ab('--base-bee', '/usr/bin/true', '--head-bee', '/usr/bin/true', '--measure', 'both')).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/a node A\/B measures wall time only/),
    });
  });
});

describe('bee-bench --bee', () => {
  it('rejects combinations that leave the node ambiguous, before starting anything', async () => {
    expect(await cli(['run', '--bee', 'docker'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/--bee docker: use dev .* or url/) });
    expect(await cli(['run', '--bee', 'dev', '--bee-url', 'http://127.0.0.1:1633', '--batch-id', 'a'.repeat(64)])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/drop --bee-url and --batch-id/),
    });
    expect(await cli(['run', '--bee', 'url', '--bee-binary', '/usr/bin/true'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/drop --bee url/) });
    expect(await cli(['run', '--bee', 'dev', '--bee-port', '70000'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/--bee-port 70000: a TCP port/) });
  });

  it('runs the net cases against a dev node from --bee-binary and stops it afterwards', async () => {
    const f = fakeBee();
    const out = mkdtempSync(join(tmpdir(), 'bee-bench-cli-bee-'));
    const r = await cli(['run', '--runner', 'js', '--bee-binary', f.exe, '--case', 'net.bytes.upload', '--out', out]);
    expect(r.stderr).toMatch(/bee: dev node 2\.8\.0-fake at http:\/\/127\.0\.0\.1:[0-9]+ .* batch [0-9a-f]{64}/);
    const batch = /batch ([0-9a-f]{64})/.exec(r.stderr)![1];
    // The runner reached the node with the bought batch (the fake serves no /bytes, so the case fails).
    const upload = f.events().find((e) => e.event === 'request' && e.method === 'POST' && e.path?.startsWith('/bytes'));
    expect(upload?.batch).toBe(batch);
    expect(JSON.parse(readFileSync(join(out, 'results', 'js.json'), 'utf8')).cases[0]).toMatchObject({ id: 'net.bytes.upload' });
    expect(alive(beePid(f))).toBe(false);
  });

  it('--bee dev on a machine without Docker fails with a hint to --bee-binary', async () => {
    // PATH as the machine has it, minus every folder that holds a docker executable.
    const hasDocker = (dir: string) => {
      try {
        accessSync(join(dir, 'docker'), constants.X_OK);
        return true;
      } catch {
        return false;
      }
    };
    const path = process.env.PATH ?? '';
    const out = mkdtempSync(join(tmpdir(), 'bee-bench-cli-nodocker-'));
    process.env.PATH = path
      .split(delimiter)
      .filter((d) => d !== '' && !hasDocker(d))
      .join(delimiter);
    let r;
    try {
      r = await cli(['run', '--runner', 'js', '--bee', 'dev', '--case', 'net.bytes.upload', '--out', out]);
    } finally {
      process.env.PATH = path;
    }
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/docker run of the Bee dev node failed \(docker not found on PATH\)/);
    expect(r.stderr).toContain('give a bee executable (Bee 2.8.0) with --bee-binary PATH instead of --bee dev');
    // No container was made, so there is nothing to remove and no "remove it by hand" advice.
    expect(r.stderr).not.toMatch(/could not remove container|docker rm/);
  });
});
