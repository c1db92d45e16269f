// A renamed case keeps its history. Records written under the former id (the bee-go record @1 the
// old code wrote, fixtures/records/v1-go.json, and a bee-js record of that time) and records of
// new runs under the new id go through the real git store: they form one series in the derived
// files, the old record stays byte for byte as it was, the alert judge and a PR's history baseline
// find the old runs for the new id, and a github-action-benchmark bench named by the old id
// imports under the new one and exports with its name unchanged.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeAgainstBranch } from '../../src/alert/judge.js';
import { catalogFromSpec } from '../../src/history/derive.js';
import { exportGab, exportGabData, importGab, renderGabDataJs } from '../../src/history/gab.js';
import { publishRecords } from '../../src/history/publish.js';
import { readRecords } from '../../src/history/read.js';
import { parseRecord, recordPath, serializeRecord, toRecord } from '../../src/history/record.js';
import type { CaseSeriesFile, HistoryIndex, HistoryRecord } from '../../src/history/schema.js';
import { staleDerived } from '../../src/history/store.js';
import { historyAbReport } from '../../src/ab/history-baseline.js';
import { caseAliases } from '../../src/spec/aliases.js';
import type { Spec } from '../../src/spec/schema.js';
import { SPEC_FILE, spec } from '../fixtures/spec.js';
import { bareRemote, cloneBranch, context, lsTree, removeAll, SHAS, show, smallResult, tempDir } from './helpers.js';
import { wallOf } from '../../src/verdict/index.js';

const OLD = 'cpu.ecdsa.sign-1000';
const NEW = 'cpu.ecdsa.sign';
const V1 = join(import.meta.dirname, 'fixtures/records/v1-go.json');

const dirs: string[] = [];
afterAll(() => removeAll(dirs));

/** A record as the runners wrote it before the rename: the same case under its old id. */
const asBefore = (r: HistoryRecord): HistoryRecord => ({ ...r, cases: r.cases.map((c) => (c.id === NEW ? { ...c, id: OLD } : c)) });

const oldGo = parseRecord(V1, readFileSync(V1, 'utf8')); // commit 3, written by the old code
const oldJs = asBefore(toRecord(smallResult('js', 3), context(3)));
const newGo = smallResult('go', 5);
const newRecords = [toRecord(newGo, context(5)), toRecord(smallResult('js', 5), context(5))];

let remote: string;
let clone: string;

beforeAll(async () => {
  expect(oldGo.cases.map((c) => c.id)).toContain(OLD);
  remote = await bareRemote(dirs);
  await publishRecords([oldGo, oldJs], { remote, workdir: tempDir('work', dirs), spec });
  await publishRecords(newRecords, { remote, workdir: tempDir('work', dirs), spec });
  clone = await cloneBranch(remote, dirs);
}, 120_000);

describe('a renamed case in the history store', () => {
  it('keeps the old records as written and derives one series under the new id', async () => {
    const tree = await lsTree(remote);
    expect(tree).toContain(`bench/series/${NEW}.json`);
    expect(tree.filter((p) => p.includes(OLD))).toEqual([]);
    expect(await show(remote, `bench/${recordPath(oldGo)}`)).toBe(serializeRecord(oldGo));
    expect(await show(remote, `bench/${recordPath(oldGo)}`)).toContain(`"id": "${OLD}"`);

    const index = JSON.parse(readFileSync(join(clone, 'bench/index.json'), 'utf8')) as HistoryIndex;
    const sign = index.cases.find((c) => c.id === NEW)!;
    expect(sign.formerly).toEqual([OLD]);
    expect(index.cases.map((c) => c.id)).not.toContain(OLD);
    expect(sign.series.map((s) => [s.runner, s.points])).toEqual([
      ['js', 2],
      ['go', 2],
    ]);
    const file = JSON.parse(readFileSync(join(clone, 'bench', sign.file), 'utf8')) as CaseSeriesFile;
    const go = file.series.find((s) => s.runner === 'go')!;
    expect(go.points.map((p) => [p.sha, p.record])).toEqual([
      [SHAS[3], recordPath(oldGo)],
      [SHAS[5], recordPath(newRecords[0]!)],
    ]);
    // The old and new points compare: the latest change is against the record of the old id.
    expect(sign.series.find((s) => s.runner === 'go')!.latest['main']!.change).not.toBeNull();
    // The scoreboard entry of the old run scores the row too.
    expect(index.scoreboard.map((e) => [e.sha, e.rows])).toEqual([
      [SHAS[3], 2],
      [SHAS[5], 2],
    ]);
    // What the store derived equals a fresh derivation with the spec's catalog.
    expect(await staleDerived(join(clone, 'bench'), { catalog: catalogFromSpec(spec) })).toEqual([]);
  });

  it('the alert judge and the PR history baseline find the old run for the new id', () => {
    const records = readRecords(join(clone, 'bench')).records.map((l) => l.record);
    // The new run at commit 5 judged against the branch: its only other run is the old-id one.
    const o = { branch: 'main', sha: SHAS[5]!, lastRuns: 10, alpha: 0.05, threshold: 0.05 };
    const row = judgeAgainstBranch(newGo, records, spec, o).rows.find((r) => r.caseId === NEW)!;
    expect(row).toMatchObject({ status: 'ok', rounds: 1 });
    expect(wallOf(row)?.baseMedianNs).toBe(oldGo.cases.find((c) => c.id === OLD)!.median_ns);
    // Without the spec's formerly the old run is not this case's: the row would have no history.
    const noFormerly: Spec = { ...spec, cases: spec.cases.map(({ formerly: _f, ...c }) => c) };
    expect(caseAliases(noFormerly).size).toBe(0);
    expect(judgeAgainstBranch(newGo, records, noFormerly, o).rows.find((r) => r.caseId === NEW)).toMatchObject({ status: 'new', rounds: 0 });

    const before = records.filter((r) => r.commit.sha === SHAS[3]);
    const report = historyAbReport(newGo, before, {
      specFile: SPEC_FILE,
      profile: 'quick',
      outDir: tempDir('ab', dirs),
      branch: 'main',
      lastRuns: 10,
      alpha: 0.05,
      threshold: 0.05,
      headLabel: 'head',
      marker: 'former-ids',
    });
    expect(report.input.rows.find((r) => r.caseId === NEW)).toMatchObject({ status: 'ok', rounds: 1 });
    expect(report.input.env.clientBase).toBe('main history (1 run)');
  });

  it('import-gab stores a bench named by the old id under the new one, and exports its name unchanged', () => {
    const text = renderGabDataJs(exportGabData([oldGo]));
    expect(text).toContain(`${OLD} [quick] (go)`);
    const imported = importGab('data.js', text, { aliases: caseAliases(spec) });
    expect(imported.records.flatMap((r) => r.cases.map((c) => c.id))).toContain(NEW);
    expect(imported.records.flatMap((r) => r.cases.map((c) => c.id))).not.toContain(OLD);
    expect(imported.records.flatMap(exportGab).map((b) => b.name)).toEqual(exportGab(oldGo).map((b) => b.name));
    // Without aliases the bench keeps the old id (what an import did before).
    expect(importGab('data.js', text).records.flatMap((r) => r.cases.map((c) => c.id))).toContain(OLD);
  });
});
