// Function profiles from real callgrind dumps (real runners under real valgrind), the files they
// leave opened by the real tools (callgrind_annotate, go tool pprof), and the recursion rule on a
// dump written in callgrind's own shape.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readDumps } from '../../src/count/callgrind.js';
import { inclusive, readDumpProfile } from '../../src/profile/callgrind-read.js';
import { diffProfiles } from '../../src/profile/diff.js';
import { foldIntoClient } from '../../src/profile/fold.js';
import { profileOf, writeRowProfiles } from '../../src/profile/index.js';
import { displayName, isClientOwn } from '../../src/profile/names.js';
import { ProfileDiffSchema } from '../../src/profile/schema.js';
import { renderProfileHtml } from '../../src/report/render/profile-html.js';
import { launch, serveSite } from '../pages/harness.js';
import { countedDumps, SOURCES, tmp, type CountedDumps } from './real-dumps.js';

const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts');

describe('readDumpProfile: recursion counted once', () => {
  // main -> a -> b -> a'2 (a entered again while active) -> c; a -> a'2 direct recursion too.
  const dump = [
    'desc: Trigger: Client Request: bee-bench 3 7',
    'positions: line',
    'events: Ir',
    '',
    'fn=(1) main',
    '1 10',
    'cfn=(2) a',
    'calls=1 0',
    '1 1000',
    'fn=(2)',
    '2 100',
    'cfn=(3) b',
    'calls=2 0',
    '2 600',
    "cfn=(4) a'2",
    'calls=1 0',
    '2 300',
    'fn=(3)',
    '3 50',
    'cfn=(4)',
    'calls=1 0',
    '3 550',
    'fn=(4)',
    '4 250',
    'cfn=(5) c',
    'calls=4 0',
    '4 600',
    'fn=(5)',
    '5 600',
    'totals: 1010',
    '',
  ].join('\n');

  it('folds levels into one function and counts what ran under it once', () => {
    const p = readDumpProfile(dump);
    expect(p.trigger).toEqual({ unit: 3, step: 7, spin: false });
    expect(Object.fromEntries(p.self)).toEqual({ main: 10, a: 350, b: 50, c: 600 });
    // a's calls into itself are no edge; b's call back into a is, and c's calls are a's.
    expect(p.edges.get('a')?.get('b')).toEqual({ calls: 2, ir: 600 });
    expect(p.edges.get('a')?.has('a')).toBe(false);
    expect(p.edges.get('a')?.get('c')).toEqual({ calls: 4, ir: 600 });
    // Everything but main's own 10 ran under a: 1000 (main's call into it), not 1000 + the 550
    // that b's call back into a'2 carries again.
    expect(inclusive(p, 'a')).toBe(1000);
    expect(inclusive(p, 'main')).toBe(1010);
    expect(inclusive(p, 'b')).toBe(600);
    expect(inclusive(p, 'c')).toBe(600);
  });
});

describe('display names and the client’s own', () => {
  it('gives Go its package-qualified names and Rust its crate paths', () => {
    expect(displayName('go', 'github.com/ethswarm-tools/bee-go/pkg/swarm.(*FileChunker).Write')).toBe('swarm.(*FileChunker).Write');
    expect(displayName('go', 'golang.org/x/crypto/sha3.keccakF1600.abi0')).toBe('sha3.keccakF1600');
    expect(displayName('go', 'runtime.mallocgc')).toBe('runtime.mallocgc');
    expect(displayName('rs', 'bee::swarm::bmt::calculate_chunk_address')).toBe('bee::swarm::bmt::calculate_chunk_address');
    expect(displayName('rs', 'x'.repeat(500))).toHaveLength(200);
    expect(isClientOwn('go', 'github.com/ethswarm-tools/bee-go/pkg/swarm.calculateBMTRoot', '')).toBe(true);
    expect(isClientOwn('go', 'github.com/ethswarm-tools/bee-bench/runners/go/harness.Parallel', '')).toBe(false);
    expect(isClientOwn('rs', '<bee::manifest::node::Fork as core::clone::Clone>::clone', '')).toBe(true);
    expect(isClientOwn('rs', 'bee_bench_rs::cases::cpu::manifest_lookup::{{closure}}', '')).toBe(false);
    expect(isClientOwn('js', 'makeChunk', 'node_modules/@ethersphere/bee-js/dist/cjs/chunk/cac.js')).toBe(true);
    // JIT code: the file is callgrind's '???', the package-relative path is in the symbolized name.
    expect(isClientOwn('js', 'calculateChunkAddress @ethersphere/bee-js/dist/mjs/chunk/bmt.js', '???')).toBe(true);
    expect(isClientOwn('js', 'log2Reduce cafe-utility/index.js', '???')).toBe(true);
    expect(isClientOwn('js', '(anonymous) cafe-utility/index.js «i => { t.set(i, r), (r += i.length) }»', '???')).toBe(true);
    expect(isClientOwn('js', 'chunkHash bee-bench-runner-js/src/cases/keccak.mjs', '???')).toBe(false);
    expect(isClientOwn('js', '(anonymous) not-cafe-utility/index.js:1:1', '???')).toBe(false);
    expect(isClientOwn('js', 'Builtins_TypedArrayPrototypeSlice', '???')).toBe(false);
  });
});

describe.each(SOURCES)('profiles from real dumps ($runner)', { timeout: 1_800_000 }, ({ runner, source }) => {
  let a: CountedDumps;
  let b: CountedDumps;
  let slowed: CountedDumps;
  let filesDir = '';
  const row = { caseId: 'cpu.manifest.lookup-large', label: 'quick' };
  beforeAll(async () => {
    [a, b, slowed] = await Promise.all([
      countedDumps(runner, source),
      countedDumps(runner, source),
      countedDumps(runner, source, { BEE_BENCH_SLOWDOWN: 'cpu.manifest.*:0.05' }),
    ]);
    row.label = String(a.plan.units.find((u) => u.id === row.caseId)!.param.label);
  }, 1_800_000);

  const profile = (d: CountedDumps, r = row) => profileOf(runner, { dir: d.dir, plan: d.plan }, r)!;

  it('adds up to the count the verdict read, per iteration, with inclusive costs that nest', () => {
    const unit = a.plan.units.find((u) => u.id === row.caseId)!.unit;
    const counts = readDumps(a.dir).get(unit)!;
    const p = profile(a);
    expect(p.iterations).toBe(2);
    const mean = counts.reduce((s, n) => s + n, 0) / counts.length;
    // Go's wall-clock functions come out in proportion below their calls: a fraction of an instruction.
    expect(Math.abs(p.total - mean)).toBeLessThan(runner === 'go' ? p.total * 1e-7 : 1e-6);
    const fns = [...p.functions.values()];
    for (const f of fns) expect(f.inclusive).toBeGreaterThanOrEqual(f.self - 1e-6);
    const widest = Math.max(...fns.map((f) => f.inclusive));
    expect(widest / p.total).toBeGreaterThan(0.99);
    // Go: callgrind follows calls across goroutine switches only roughly, so an inclusive cost
    // can pass the row's by a few in 100,000.
    expect(widest).toBeLessThanOrEqual(p.total * (runner === 'go' ? 1 + 1e-4 : 1) + 2);
    // The client's functions with their outside callees folded in: most of the row, never more.
    const folded = [...foldIntoClient(p).values()].reduce((s, f) => s + f.cost, 0);
    expect(folded / p.total).toBeGreaterThan(0.5);
    expect(folded).toBeLessThanOrEqual(p.total + 1);
  });

  it('A/A: two processes list no change (bee-rs: the same functions to the instruction)', () => {
    for (const r of [row, { caseId: 'cpu.harness.noop', label: String(a.plan.units.find((u) => u.id === 'cpu.harness.noop')!.param.label) }]) {
      const pa = profile(a, r);
      const pb = profile(b, r);
      if (runner === 'rs') {
        expect([...pb.functions.keys()].sort()).toEqual([...pa.functions.keys()].sort());
        for (const f of pa.functions.values()) expect(pb.functions.get(f.name)?.self, f.name).toBe(f.self);
      }
      const d = diffProfiles(pa, pb, r);
      expect(d.self).toEqual([]);
      expect(d.own).toEqual([]);
      expect(d.allocations).toEqual([]);
    }
  });

  it('names the injected work as the new function that takes the whole change, and writes files the real tools open', () => {
    const base = profile(a);
    const head = profile(slowed);
    const out = tmp();
    const { dir, diff } = writeRowProfiles(out, row, { base, head }, { base: 'plain', head: 'slowed' }, renderProfileHtml);
    filesDir = dir;
    const d = ProfileDiffSchema.parse(diff);
    expect(d.total.head / d.total.base).toBeGreaterThan(1.045);
    const first = d.self[0]!;
    expect(first.status).toBe('new');
    expect(first.name).toMatch(/spin/i);
    expect((first.head - first.base) / (d.total.head - d.total.base)).toBeGreaterThan(0.9);
    // The client's own code did not change: nothing near the 5% (bee-go's runtime moves a little).
    for (const l of d.own) expect(Math.abs(l.head - l.base) / d.total.base).toBeLessThan(1e-3);

    for (const side of ['base', 'head']) {
      const annotated = execFileSync('callgrind_annotate', [join(dir, `callgrind.out.${side}`)], { encoding: 'utf8' });
      expect(annotated).toMatch(/PROGRAM TOTALS/);
      const top = [...(side === 'base' ? base : head).functions.values()].sort((x, y) => y.self - x.self)[0]!;
      expect(annotated).toContain(displayName(runner, top.name).slice(0, 40));
      expect(readFileSync(join(dir, `${side}.folded`), 'utf8')).toMatch(/^\S.* \d+$/m);
    }
    const pprof = execFileSync('go', ['tool', 'pprof', '-top', '-diff_base', join(dir, 'base.pb.gz'), join(dir, 'head.pb.gz')], { encoding: 'utf8' });
    expect(pprof).toMatch(/Type: instructions/);
    expect(pprof.split('\n').find((l) => /spin/i.test(l))).toMatch(/^\s*\d+/);
    expect(existsSync(join(dir, 'diff.html'))).toBe(true);
  });

  it('shows the differential view in Chromium: the new work red, nothing fetched, no script', async () => {
    expect(filesDir).not.toBe('');
    const server = await serveSite(filesDir, filesDir);
    const browser = await launch({ viewport: { width: 1300, height: 900 } });
    try {
      const page = await browser.context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      await page.goto(new URL('diff.html', server.url).href);
      const frames = await page.$$eval('svg.flame g', (gs) =>
        gs.map((g) => ({
          title: g.querySelector('title')?.textContent ?? '',
          fill: g.querySelector('rect')?.getAttribute('fill') ?? '',
          w: Number(g.querySelector('rect')?.getAttribute('width')),
        })),
      );
      expect(frames.length).toBeGreaterThan(3);
      const spin = frames.filter((f) => /spin/i.test(f.title));
      expect(spin.length).toBeGreaterThan(0);
      // Red: more instructions in head (the injected spin is new).
      for (const f of spin) {
        const [, red, , blue] = /^rgb\((\d+),(\d+),(\d+)\)$/.exec(f.fill) ?? [];
        expect(Number(red), f.fill).toBeGreaterThan(Number(blue));
      }
      expect(await page.locator('table').count()).toBe(3);
      expect(errors).toEqual([]);
      expect(browser.external).toEqual([]);
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, `profile-diff-${runner}.png`), fullPage: true });
    } finally {
      await browser.close();
      await server.close();
    }
  });
});
