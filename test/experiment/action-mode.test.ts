// mode: experiment of the action: the inputs' phase on the inputs' run folder, through the runner
// the client input names; the job summary gets the run's status, then the report once asked for.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRunner, defaultCacheDir } from '../../src/build/index.js';
import { experimentFlow } from '../../src/action/experiment-mode.js';
import { readInputs, type InputName } from '../../src/action/inputs.js';
import { DESIGN_SCHEMA } from '../../src/experiment/schema.js';
import { journalRows } from './kill-resume.js';
import { FAKE_BATCH, startFakeNode, type FakeNode } from './fake-node.js';

let node: FakeNode;
const summary = join(mkdtempSync(join(tmpdir(), 'bee-bench-exp-summary-')), 'summary.md');
const saved = process.env.GITHUB_STEP_SUMMARY;
beforeAll(async () => {
  await buildRunner({ runner: 'js', source: { kind: 'registry' }, log: () => {} });
  node = await startFakeNode();
  writeFileSync(summary, '');
  process.env.GITHUB_STEP_SUMMARY = summary;
}, 600_000);
afterAll(async () => {
  process.env.GITHUB_STEP_SUMMARY = saved;
  await node?.close();
});

describe('mode: experiment', () => {
  it('uploads in one step, downloads in a later one, then reports, from the run folder alone', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'bee-bench-exp-ws-'));
    const design = {
      schema: DESIGN_SCHEMA,
      sizes: [1000, 5000],
      levels: [0, 2],
      strategies: ['DATA'],
      nodes: [
        { label: 'a', release: '2.7.0', url: node.url, batch_id: FAKE_BATCH },
        { label: 'b', release: '2.8.0', url: node.url, batch_id: FAKE_BATCH },
      ],
      replicates: 3,
      attempts: 2,
      upload: 'deferred',
      endpoint: 'bytes',
      wait: { signal: 'auto', ceiling_s: 10, poll_s: 1 },
      timeout_s: 10,
    };
    writeFileSync(join(workspace, 'design.json'), JSON.stringify(design));
    const inputs = (over: Partial<Record<InputName, string>>) =>
      readInputs((n) => ({ mode: 'experiment', client: 'js', 'experiment-out': 'study', ...over })[n as string] ?? '', { workspace });
    await experimentFlow(inputs({ 'experiment-command': 'upload', 'experiment-design': 'design.json' }), defaultCacheDir());
    expect(journalRows(join(workspace, 'study')).filter((r) => r.type === 'download')).toHaveLength(0);
    expect(readFileSync(summary, 'utf8')).toMatch(/uploads: 24 ok, 0 failed, 0 left/);
    await experimentFlow(inputs({ 'experiment-command': 'download' }), defaultCacheDir());
    expect(readFileSync(summary, 'utf8')).toMatch(/downloads: 24 units ok, 0 failed all 2 attempts, 0 left/);
    await experimentFlow(inputs({ 'experiment-command': 'report' }), defaultCacheDir());
    expect(readFileSync(join(workspace, 'study', 'report', 'experiment-report.md'), 'utf8')).toMatch(/2\.8\.0/);
  }, 120_000);
});
