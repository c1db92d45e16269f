// One machine reads the same for every client: each runner reports its language's platform names
// (Node "linux/x64", Go "linux/amd64", Rust "linux/x86_64"), the report says Node's names for all.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildRunner, parseSource } from '../../src/build/index.js';
import { aggregate } from '../../src/report/model/aggregate.js';
import { renderAbComment } from '../../src/report/render/ab-comment.js';
import { renderMarkdown } from '../../src/report/render/report-md.js';
import { normalHost, platformOf } from '../../src/spec/platform.js';
import { InfoSchema, type Host, type Runner } from '../../src/spec/schema.js';
import { testClients } from '../clients.js';
import { abInput, caseResult, realSpec, result } from './fixtures.js';

const exec = promisify(execFile);
const { spec, hash } = realSpec();

describe('platform names', () => {
  it("maps Go's and Rust's names for one machine onto Node's", () => {
    const same = (names: Array<[string, string]>) => new Set(names.map(([os, arch]) => platformOf({ os, arch })));
    expect(
      same([
        ['linux', 'x64'],
        ['linux', 'amd64'],
        ['linux', 'x86_64'],
      ]),
    ).toEqual(new Set(['linux/x64']));
    expect(
      same([
        ['linux', 'arm64'],
        ['linux', 'arm64'],
        ['linux', 'aarch64'],
      ]),
    ).toEqual(new Set(['linux/arm64']));
    expect(
      same([
        ['darwin', 'arm64'],
        ['darwin', 'arm64'],
        ['macos', 'aarch64'],
      ]),
    ).toEqual(new Set(['darwin/arm64']));
    expect(
      same([
        ['win32', 'x64'],
        ['windows', 'amd64'],
        ['windows', 'x86_64'],
      ]),
    ).toEqual(new Set(['win32/x64']));
    expect(
      same([
        ['linux', 'ia32'],
        ['linux', '386'],
        ['linux', 'x86'],
      ]),
    ).toEqual(new Set(['linux/ia32']));
    // A name it does not know is shown as reported, never guessed; nothing else of the host changes.
    expect(platformOf({ os: 'plan9', arch: 'constructor' })).toBe('plan9/constructor');
    const host: Host = { os: 'linux', arch: 'x86_64', cpu_model: 'm', cpus: 2, mem_mb: 1024, runtime: 'rustc 1.95.0' };
    expect(normalHost(host)).toEqual({ ...host, arch: 'x64' });
  });
});

describe("the runners' real host blocks", () => {
  const clients = testClients().tested;
  const hosts = new Map<Runner, Host>();

  beforeAll(async () => {
    for (const c of clients) {
      const b = await buildRunner({ runner: c.runner, source: parseSource(c.source), log: () => {} });
      const [exe, ...prefix] = b.command.argv;
      const { stdout } = await exec(exe!, [...prefix, 'info']);
      hosts.set(c.runner, InfoSchema.parse(JSON.parse(stdout)).host);
    }
  }, 1_800_000);

  it("read as one platform, Node's, in the Runners table of report.md and in the A/B comment", () => {
    const node = `${process.platform}/${process.arch}`;
    // The runners do speak their own languages: the report is what makes them agree.
    if (hosts.has('rs') && process.arch === 'x64') expect(hosts.get('rs')!.arch).toBe('x86_64');
    if (hosts.has('go') && process.arch === 'x64') expect(hosts.get('go')!.arch).toBe('amd64');
    const results = [...hosts].map(([runner, host]) =>
      result(runner, [caseResult({ id: 'cpu.identity.create', param: { label: 'quick', count: 10 }, work: { ops: 10 }, samples_ns: [1e6, 1e6, 1e6] })], hash, {
        host,
      }),
    );
    const md = renderMarkdown(aggregate(results, spec, { specHash: hash }));
    const runnerRows = md.split('\n').filter((l) => / \| ran \| /.test(l));
    expect(runnerRows).toHaveLength(hosts.size);
    for (const row of runnerRows) expect(row).toContain(` | ${node}, `);
    for (const host of hosts.values()) {
      expect(renderAbComment(abInput([], { env: { host } }))).toContain(`| host | ${node}, `);
    }
  });
});
