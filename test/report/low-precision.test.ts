// Low-precision rows in a real quick run: `bee-bench run` of bee-js and bee-rs, in this process,
// on a spec whose bee-js recovery does the quick work it did before the rename (2 signatures per
// iteration, 10 ops in 5 iterations). The row is marked in the console, report.md, report.html and
// report.csv as too wide for an A/B claim, and the scoreboard still ranks every row whose ranking
// the iterations tell (src/stats/scoreboard.ts), its caption naming how many it left out. Which other rows a loaded machine spreads beyond ±10% is up to the machine: the test
// derives the expected marks from the result files' own samples with the rule, and checks every
// output against them. The case is asked for by its former id, which selects it with a note.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadResult } from '../../src/spec/load.js';
import type { AggregateModel } from '../../src/report/model/types.js';
import { CSV_COLUMNS } from '../../src/report/render/csv.js';
import { geomean } from '../../src/stats/index.js';
import type { Result, Runner } from '../../src/spec/schema.js';
import { LOW_PRECISION_RULE, precisionReasons } from '../../src/verdict/precision.js';
import { RANKING_RULE } from '../../src/stats/scoreboard.js';
import { htmlText } from '../../src/report/escape.js';
import { runCli } from '../cli/run-cli.js';
import { editedSpecFile } from '../fixtures/spec.js';
import { parseCsv } from '../fixtures/csv.js';

const RUNNERS: Runner[] = ['js', 'rs'];
const CASES = ['cpu.ecdsa.verify-1000', 'cpu.identity.create', 'cpu.keccak.chunk-hash'];
const OLD_JS_VERIFY = 2;

let out: string;
let run: { code: number; stdout: string; stderr: string };
const results = new Map<Runner, Result>();

beforeAll(async () => {
  const specFile = editedSpecFile((raw) => {
    const verify = raw.cases.find((c: { id: string }) => c.id === 'cpu.ecdsa.verify');
    verify.params.quick[0].per_runner.js.count = OLD_JS_VERIFY;
  });
  out = mkdtempSync(join(tmpdir(), 'bee-bench-low-precision-'));
  run = await runCli(['run', '--spec', specFile, ...RUNNERS.flatMap((r) => ['--runner', r]), ...CASES.flatMap((c) => ['--case', c]), '--out', out]);
  for (const r of RUNNERS) results.set(r, loadResult(join(out, 'results', `${r}.json`)));
}, 900_000);

afterAll(() => {
  if (out) rmSync(out, { recursive: true, force: true });
});

/** Rows ("case label") with a low-precision figure, by the rule over the result files' own samples. */
function expectedLow(): Map<string, Map<Runner, string[]>> {
  const low = new Map<string, Map<Runner, string[]>>();
  for (const [runner, r] of results) {
    for (const c of r.cases) {
      if (c.status !== 'ok') continue;
      const reasons = precisionReasons(c.samples_ns, c.work);
      if (reasons.length === 0) continue;
      const key = `${c.id} ${String(c.param['label'])}`;
      const row = low.get(key) ?? new Map<Runner, string[]>();
      row.set(
        runner,
        reasons.map((x) => x.kind),
      );
      low.set(key, row);
    }
  }
  return low;
}

describe('a quick run with a row on 10 ops', () => {
  it('ran both clients, selected the case by its former id and said its new id', () => {
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('note: case cpu.ecdsa.verify-1000 is now cpu.ecdsa.verify (renamed; its history continues under the new id): use the new id');
    const verify = results.get('js')!.cases.find((c) => c.id === 'cpu.ecdsa.verify')!;
    expect(verify.work).toEqual({ ops: OLD_JS_VERIFY });
    expect(verify.samples_ns).toHaveLength(5);
  });

  it('the rule marks the bee-js recovery row on its ops, and the expected rows follow from the samples', () => {
    const low = expectedLow();
    expect(low.get('cpu.ecdsa.verify quick')?.get('js')).toContain('ops');
    // bee-rs recovers 2,000 signatures per iteration: never on the ops rule.
    for (const row of low.values()) expect(row.get('rs') ?? []).not.toContain('ops');
  });

  it('says so in one console line, naming the row and why', () => {
    const low = expectedLow();
    const line = run.stderr.split('\n').find((l) => l.startsWith('≈ '));
    expect(line).toBeDefined();
    expect(line).toContain(`≈ ${low.size} low-precision row${low.size === 1 ? '' : 's'}, too wide for an A/B claim of a few % (${LOW_PRECISION_RULE})`);
    expect(line).toMatch(/cpu\.ecdsa\.verify quick \(bee-js: 10 ops in 5 iterations/);
  });

  it('marks report.csv: the reason on the low cell, "row: …" on the other runner, empty elsewhere', () => {
    const low = expectedLow();
    const rows = parseCsv(readFileSync(join(out, 'report.csv'), 'utf8'));
    expect(rows[0]).toEqual([...CSV_COLUMNS]);
    const col = (k: (typeof CSV_COLUMNS)[number]) => CSV_COLUMNS.indexOf(k);
    const lines = rows.slice(1).filter((r) => r[col('status')] === 'ok');
    expect(lines).toHaveLength(CASES.length * RUNNERS.length);
    for (const r of lines) {
      const key = `${r[col('case')]} ${r[col('label')]}`;
      const runner = r[col('runner')] === 'bee-js' ? 'js' : 'rs';
      const field = r[col('low_precision')]!;
      const own = low.get(key)?.get(runner);
      if (own) expect(field, key).toMatch(own.includes('ops') ? /^\d+ ops in 5 iterations/ : /^median ±[\d.]+% \(95% interval, 5 iterations\)$/);
      else if (low.has(key)) expect(field, key).toBe('row: its ratio rests on a low-precision figure of another runner');
      else expect(field, key).toBe('');
    }
    const jsVerify = lines.find((r) => r[col('case')] === 'cpu.ecdsa.verify' && r[col('runner')] === 'bee-js')!;
    expect(jsVerify[col('low_precision')]).toMatch(/^10 ops in 5 iterations/);
  });

  it('scores every row whose ranking is clear, low-precision or not: the geometric mean over those rows', () => {
    const model = JSON.parse(readFileSync(join(out, 'aggregate.json'), 'utf8')) as AggregateModel;
    const rows = model.groups.flatMap((g) => g.cases.flatMap((c) => c.rows)).filter((r) => r.contested);
    expect(rows).toHaveLength(CASES.length);
    const scored = rows.filter((r) => !r.rankingOpen);
    // The rule, by hand: the fastest cell's median interval below the other's.
    for (const r of rows) {
      const [a, b] = RUNNERS.map((x) => r.cells[x]!);
      const [top, other] = a!.ratio === 1 ? [a!, b!] : [b!, a!];
      expect(r.rankingOpen === true, `${r.caseId} ${r.label}`).toBe(other.costInterval!.lo <= top.costInterval!.hi);
    }
    expect(new Set(rows.filter((r) => r.lowPrecision).map((r) => `${r.caseId} ${r.label}`))).toEqual(new Set(expectedLow().keys()));
    // bee-rs recovers signatures many times faster than bee-js: the 10-op row ranks however wide its spread.
    expect(scored.map((r) => r.caseId)).toContain('cpu.ecdsa.verify');
    expect(model.scoreboardRows).toEqual({ scored: scored.length, open: rows.length - scored.length });
    for (const runner of RUNNERS) {
      const entry = model.scoreboard.find((s) => s.runner === runner)!;
      expect(entry.rows).toBe(scored.length);
      const ratios = scored.map((r) => r.cells[runner]!.ratio!);
      if (ratios.length > 0) expect(entry.geomean).toBeCloseTo(geomean(ratios), 12);
      else expect(entry.geomean).toBeNull();
    }
  });

  it('report.md and report.html mark the row and its cell and say in the caption how the rows are ranked', () => {
    const model = JSON.parse(readFileSync(join(out, 'aggregate.json'), 'utf8')) as AggregateModel;
    const n = model.scoreboardRows!.open;
    const caption = n > 0 ? `${n} row${n === 1 ? ' is' : 's are'} left out: ${RANKING_RULE}.` : `Every contested row is ranked: ${RANKING_RULE}.`;
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    const board = md.slice(md.indexOf('## Scoreboard'), md.indexOf('## ', md.indexOf('## Scoreboard') + 3));
    expect(board).toContain(caption.replace(/[*_]/g, (c) => `&#${c.charCodeAt(0)};`));
    const verify = md.slice(md.indexOf('### `cpu.ecdsa.verify`'));
    expect(verify).toMatch(/quick<br>bee-js 2 ops · bee-rs 2,000 ops<br>≈ low precision for A\/B claims/);
    expect(verify).toContain('≈ low precision: 10 ops in 5 iterations');
    expect(verify).toContain('≈ Low precision: ');
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain(`<p class="sub scoreboard-note">`);
    expect(html).toContain(htmlText(caption));
    expect(html).toContain('<span class="sub low-precision">≈ low precision: 10 ops in 5 iterations');
    expect(html).toContain('<div class="sub low-precision">≈ low precision for A/B claims</div>');
  });
});
