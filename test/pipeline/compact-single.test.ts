// A single run that counts (`bee-bench run --measure instructions`, a push run) leaves every counted
// row's compact function profile: bee-rs from the registry under real valgrind, the counting run's
// dumps read into compact profiles (the file the artifact carries) and then removed.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compactFile } from '../../src/profile/run-compact.js';
import { singlePipeline } from '../../src/pipeline/single.js';
import { RunProfilesSchema } from '../../src/profile/schema.js';

describe('a counting single run keeps compact profiles', () => {
  it('one per counted row, in the outcome and in profiles/<runner>.compact.json; the dumps are gone', { timeout: 1_800_000 }, async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'bee-bench-compact-single-'));
    const lines: string[] = [];
    const out = await singlePipeline({
      specFile: resolve('spec/bench-spec.json'),
      size: 'quick',
      cases: ['cpu.harness.noop', 'cpu.manifest.lookup-large'],
      outDir,
      runners: [{ runner: 'rs', source: { kind: 'registry' } }],
      measure: ['instructions'],
      log: (l) => lines.push(l),
    });
    expect(out.problems, lines.slice(-20).join('\n')).toEqual([]);
    expect(out.profiles).toHaveLength(1);
    const counted = out.results[0]!.cases.filter((c) => c.instructions).map((c) => c.id);
    expect(out.profiles[0]!.rows.map((r) => r.caseId).sort()).toEqual(counted.sort());
    const lookup = out.profiles[0]!.rows.find((r) => r.caseId === 'cpu.manifest.lookup-large')!;
    // The row's count and its compact profile's total agree (the profile reads the count's dumps).
    const counts = out.results[0]!.cases.find((c) => c.id === lookup.caseId)!.instructions!;
    const mean = counts.reduce((s, n) => s + n, 0) / counts.length;
    expect(Math.abs(lookup.total - mean)).toBeLessThan(1);
    expect(lookup.own[0]!.name).toMatch(/^(<)?bee::/);
    expect(RunProfilesSchema.parse(JSON.parse(readFileSync(compactFile(outDir, 'rs'), 'utf8')))).toEqual(out.profiles[0]);
    expect(existsSync(join(outDir, 'counts', 'raw-rs'))).toBe(false);
    console.log(lines.filter((l) => l.startsWith('profiles:')).join('\n'));
  });
});
