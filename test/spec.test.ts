// Tests of the committed spec, spec errors that name file, field and fix, and the result schema.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/spec/errors.js';
import { planJsonSchemaText, resultJsonSchemaText, specJsonSchemaText } from '../src/spec/json-schema.js';
import { loadResult, loadSpec, parseResult } from '../src/spec/load.js';
import { ResultSchema, type Result } from '../src/spec/schema.js';
import { caseIters, effectiveParam, profileParams, selectCases, workOf } from '../src/spec/select.js';
import { editedSpecFile } from './fixtures/spec.js';

const SPEC = 'spec/bench-spec.json';
const tmp = () => mkdtempSync(join(tmpdir(), 'bee-bench-spec-'));

function sampleResult(): Result {
  return {
    schema: 'bee-bench/result@1',
    runner: 'js',
    client: { name: '@ethersphere/bee-js', version: '12.1.0', source: 'registry' },
    bee: null,
    spec: { hash: 'a'.repeat(64), profile: 'quick' },
    host: { os: 'linux', arch: 'x64', cpu_model: 'x', cpus: 2, mem_mb: 1024, runtime: 'node v20' },
    started_at: '2026-11-20T10:00:00.000Z',
    finished_at: '2026-11-20T10:01:00.000Z',
    cases: [
      {
        id: 'cpu.ecdsa.sign',
        kind: 'cpu',
        param: { label: 'quick', count: 10 },
        status: 'ok',
        warmup: 1,
        samples_ns: [1, 2, 3],
        cpu_ns: [1, 2, 3],
        peak_rss_bytes: 1000,
        work: { ops: 10 },
        digest: 'ab12',
      },
      {
        id: 'net.bzz.upload',
        kind: 'net',
        param: { label: '1 MiB', bytes: 1048576 },
        status: 'skipped',
        skip_reason: 'no Bee node given (--bee-url and --batch-id)',
        warmup: 0,
        samples_ns: [],
        cpu_ns: [],
        peak_rss_bytes: null,
        work: { bytes: 1048576 },
      },
    ],
  };
}

describe('the committed spec', () => {
  const { spec, hash } = loadSpec(SPEC);

  it('holds the 26 predecessor cases, net.bytes.download and the harness calibration case', () => {
    expect(spec.cases.filter((c) => c.kind === 'cpu' && c.group !== 'harness')).toHaveLength(10);
    expect(spec.cases.filter((c) => c.kind === 'net')).toHaveLength(17);
    expect(spec.cases.map((c) => c.id)).toContain('net.bytes.download');
    expect(spec.cases.map((c) => c.id)).toContain('cpu.harness.noop');
  });

  it('hashes the file bytes', () => {
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('gives every deterministic CPU case a digest definition', () => {
    const missing = spec.cases.filter((c) => c.kind === 'cpu' && c.group === 'cpu' && !c.digest).map((c) => c.id);
    expect(missing).toEqual([]);
  });

  it('keeps quick params identical for base and head (no randomness) and scales only named keys', () => {
    const sign = spec.cases.find((c) => c.id === 'cpu.ecdsa.sign')!;
    const [p] = profileParams(sign, 'quick');
    expect(effectiveParam(p!, 'js')).toEqual({ label: 'quick', count: 6 });
    expect(effectiveParam(p!, 'rs')).toEqual({ label: 'quick', count: 2000 });
    expect(workOf(sign, effectiveParam(p!, 'js'))).toEqual({ ops: 6 });
  });

  it('refuses an erasure or upload-mode param on a case whose runners do not read it, and a level outside 0..4', () => {
    const other = editedSpecFile(
      (raw) => (raw.cases.find((c: { id: string }) => c.id === 'net.bytes.head').params.full[0].strategy = 'DATA'),
      'strategy-spec.json',
    );
    expect(() => loadSpec(other)).toThrow(
      /strategy-spec\.json: cases\[\d+\]\.params\.full\[0\]\.strategy: "strategy" is a param of net\.bytes\.download, net\.bzz\.download only/,
    );
    const level = editedSpecFile(
      (raw) => (raw.cases.find((c: { id: string }) => c.id === 'net.bytes.upload').params.quick[0].redundancy_level = 5),
      'level-spec.json',
    );
    expect(() => loadSpec(level)).toThrow(/level-spec\.json: cases\[\d+\]\.params\.quick\[0\]\.redundancy_level/);
  });

  it('hides large params unless asked', () => {
    const bmt = spec.cases.find((c) => c.id === 'cpu.bmt.file-root')!;
    expect(profileParams(bmt, 'full').map((p) => p.label)).toEqual(['1 MiB', '10 MiB', '100 MiB']);
    expect(profileParams(bmt, 'full', true)).toHaveLength(4);
    expect(caseIters(spec, bmt, 'quick')).toBe(spec.profiles.quick.iters);
  });

  it('selects by glob in spec order and rejects a glob that matches nothing', () => {
    expect(selectCases(spec, ['cpu.ecdsa.*']).map((c) => c.id)).toEqual(['cpu.ecdsa.sign', 'cpu.ecdsa.verify']);
    expect(selectCases(spec, ['*bmt*', 'cpu.keccak.bul?']).map((c) => c.id)).toEqual(['cpu.keccak.bulk', 'cpu.bmt.file-root', 'cpu.bmt.encrypted-file-root']);
    expect(() => selectCases(spec, ['cpu.nothing.*'])).toThrow(/matches no case/);
  });
});

describe('spec errors name file, field and fix', () => {
  it('reports a scaled key the digest does not pin', () => {
    const file = editedSpecFile((raw) => delete raw.cases[1].params.quick[0].digest_with, 'bad-spec.json');
    expect(() => loadSpec(file)).toThrow(InputError);
    expect(() => loadSpec(file)).toThrow(/bad-spec\.json: cases\[1\]\.params\.quick\[0\]\.digest_with: per_runner scales "count"/);
  });

  it('reports invalid JSON with its line', () => {
    const file = join(tmp(), 'broken.json');
    writeFileSync(file, '{\n  "schema": "bee-bench/spec@1",\n  oops\n}');
    expect(() => loadSpec(file)).toThrow(/broken\.json: invalid JSON at line 3/);
  });

  it('reports an unknown group and a kind that contradicts the id', () => {
    const file = editedSpecFile((raw) => {
      raw.cases[2].group = 'nope';
      raw.cases[3].kind = 'net';
    });
    expect(() => loadSpec(file)).toThrow(/cases\[2\]\.group: unknown group "nope"/);
    expect(() => loadSpec(file)).toThrow(/cases\[3\]\.kind: kind "net" does not match/);
  });
});

describe('result schema', () => {
  it('round-trips a result through JSON', () => {
    const r = sampleResult();
    expect(parseResult('r.json', JSON.stringify(r))).toEqual(r);
    const file = join(tmp(), 'r.json');
    writeFileSync(file, JSON.stringify(r));
    expect(loadResult(file)).toEqual(r);
  });

  it('rejects a malformed result naming the field', () => {
    const r = sampleResult() as unknown as { cases: Record<string, unknown>[] };
    r.cases[0]!.cpu_ns = [1];
    r.cases[1]!.skip_reason = undefined;
    expect(() => parseResult('js.json', JSON.stringify(r))).toThrow(
      /js\.json: cases\[0\]\.cpu_ns: cpu_ns has 1 entries, samples_ns 3; cases\[1\]\.skip_reason: a skipped case needs skip_reason/,
    );
  });

  it('rejects an ok case without samples and a non-hex digest', () => {
    const r = sampleResult();
    r.cases[0]!.samples_ns = [];
    r.cases[0]!.cpu_ns = [];
    r.cases[0]!.digest = '0xAB';
    const issues = ResultSchema.safeParse(r).error!.issues.map((i) => i.path.join('.'));
    expect(issues).toEqual(expect.arrayContaining(['cases.0.samples_ns', 'cases.0.digest']));
  });

  it('keeps spec/result.schema.json, plan.schema.json and spec.schema.json in step with the zod source (run npm run gen:schema)', () => {
    expect(readFileSync('spec/result.schema.json', 'utf8')).toBe(resultJsonSchemaText());
    expect(readFileSync('spec/plan.schema.json', 'utf8')).toBe(planJsonSchemaText());
    expect(readFileSync('spec/spec.schema.json', 'utf8')).toBe(specJsonSchemaText());
  });
});
