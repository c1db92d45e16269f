// report.md (also the job summary) as GitHub shows it: GitHub-flavoured markdown, raw HTML parsed,
// then sanitised with the schema rehype-sanitize takes from GitHub's own. Inline SVG does not
// survive that, so every chart in markdown must be text; this checks what a reader would see.
import { toText } from 'hast-util-to-text';
import type { Element, Root } from 'hast';
import rehypeRaw from 'rehype-raw';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { renderAbComment } from '../../src/report/render/ab-comment.js';
import { aggregate } from '../../src/report/model/aggregate.js';
import { renderMarkdown } from '../../src/report/render/report-md.js';
import { textBars, textSparkline } from '../../src/report/render/text-charts.js';
import { RUNNERS } from '../../src/spec/schema.js';
import type { AbRow, Verdict } from '../../src/verdict/index.js';
import { judgedRow } from '../verdict/ab-rows.js';
import { realSpec, syntheticResult, abInput } from './fixtures.js';

/** The sanitised HTML tree GitHub would display for a markdown text. */
function githubView(markdown: string): Root {
  const processor = unified().use(remarkParse).use(remarkGfm).use(remarkRehype, { allowDangerousHtml: true }).use(rehypeRaw).use(rehypeSanitize);
  return processor.runSync(processor.parse(markdown)) as Root;
}

function elements(node: Root | Element, tag: string): Element[] {
  return node.children.flatMap((c) => (c.type === 'element' ? [...(c.tagName === tag ? [c] : []), ...elements(c, tag)] : []));
}

/** Each table as its header texts and its rows of cell texts, as rendered. */
function tables(root: Root): Array<{ header: string[]; rows: string[][] }> {
  return elements(root, 'table').map((t) => ({
    header: elements(t, 'th').map((th) => toText(th).trim()),
    rows: elements(t, 'tr')
      .filter((tr) => elements(tr, 'td').length > 0)
      .map((tr) => elements(tr, 'td').map((td) => toText(td).trim())),
  }));
}

describe('report.md on GitHub', () => {
  const { spec, hash } = realSpec();
  // Every case of the full profile with net rows, and skipped cells (their reason must show too).
  const skip = (c: { id: string }) => (c.id.includes('encrypted') ? 'no offline encrypting chunker' : undefined);
  const results = RUNNERS.map((r) => syntheticResult(r, spec, hash, { profile: 'full', n: 20, bee: true, skip }));
  const md = renderMarkdown(aggregate(results, spec, { specHash: hash }));
  const view = tables(githubView(md));

  it('embeds no SVG', () => {
    expect(md).not.toMatch(/<svg/i);
  });

  it('shows visible content in every column of every table', () => {
    expect(view.length).toBeGreaterThan(10);
    for (const t of view) {
      for (const row of t.rows) {
        expect(row).toHaveLength(t.header.length);
        row.forEach((cell, i) => expect(cell, `column "${t.header[i]}" of row "${row[0]}"`).not.toBe(''));
      }
    }
  });

  it("draws each measured cell's sparkline and each contested row's bars as text", () => {
    const cases = view.filter((t) => t.header[0] === 'param' && t.header.at(-1) === 'bars');
    expect(cases.length).toBeGreaterThan(10);
    const contested = cases.flatMap((t) => t.rows).filter((row) => row.at(-1) !== '—');
    expect(contested.length).toBeGreaterThan(10);
    for (const row of contested) {
      for (const cell of row.slice(1, -1).filter((c) => !c.startsWith('skip') && !c.startsWith('failed'))) expect(cell).toMatch(/[▁▂▃▄▅▆▇█]{20}/);
      expect(row.at(-1)).toMatch(/^bee-js [█▏▎▍▌▋▊▉—].*bee-go .*bee-rs /s);
      expect(row.at(-1)).toContain('fastest');
    }
  });
});

describe('the PR comment on GitHub', () => {
  it('shows visible content in every column of its tables (verdicts, cross-client context, environment)', () => {
    const { spec, hash } = realSpec();
    const measured = (caseId: string, ratio: number, verdict: Verdict): AbRow =>
      judgedRow(
        caseId,
        { wall: { judged: { baseMedianNs: 2e6, headMedianNs: 2e6 * ratio, ratio, ci: [ratio - 0.01, ratio + 0.01], p: 0.001, q: 0.004, verdict } } },
        { work: { ops: 100 }, rounds: 12 },
      );
    const rows: AbRow[] = [
      measured('cpu.identity.create', 1.1, 'regression'),
      measured('cpu.keccak.chunk-hash', 1.0, '~'),
      {
        caseId: 'net.stamps.list',
        label: '1 call',
        group: 'calibration',
        kind: 'net',
        status: 'skipped',
        note: 'no Bee node given',
        work: { ops: 1 },
        rounds: 0,

        evidence: {},
      },
    ];
    const crossClient = aggregate(
      (['go', 'rs'] as const).map((r) => syntheticResult(r, spec, hash, { n: 5 })),
      spec,
      { specHash: hash },
    );
    const md = renderAbComment(
      abInput(rows, {
        title: 'bee-bench: bee-js',
        marker: 'bee-bench:test:js',
        crossClient,
        env: { host: 'linux/x64', clientBase: '12.1.0', clientHead: '12.1.0 (dirty)', specHash: hash, wallTimeMs: 60_000 },
      }),
    );
    const view = tables(githubView(md));
    expect(view.map((t) => t.header[0])).toEqual(['case', 'case', expect.any(String)]);
    for (const t of view) for (const row of t.rows) row.forEach((cell, i) => expect(cell, `column "${t.header[i]}" of row "${row[0]}"`).not.toBe(''));
  });
});

describe('text charts', () => {
  it('sparkline: lowest ▁, highest █, one character per sample up to the width', () => {
    expect(textSparkline([1, 8, 4.5, 1])).toBe('▁█▅▁');
    expect(textSparkline([5, 5, 5])).toBe('▁▁▁');
    expect(textSparkline([1])).toBe('');
    expect(textSparkline(Array.from({ length: 100 }, (_, i) => i))).toHaveLength(30);
  });

  it('bars: scaled to the slowest in eighths of a cell, labelled, fastest marked, missing as a dash', () => {
    expect(
      textBars(
        [
          { label: 'bee-js', value: 8, text: '8.00x' },
          { label: 'bee-go', value: 1, text: '1.00x' },
          { label: 'bee-rs', value: null },
        ],
        4,
      ),
    ).toEqual(['bee-js ████ 8.00x', 'bee-go ▌ 1.00x fastest', 'bee-rs —']);
    expect(textBars([{ label: 'bee-js', value: null }])).toEqual([]);
  });

  it('bars: logarithmic beyond 10x, so the fastest of a 1000x row keeps a bar', () => {
    const [slow, fast] = textBars(
      [
        { label: 'js', value: 1000 },
        { label: 'rs', value: 1 },
      ],
      4,
    );
    expect(slow).toBe('js ████');
    expect(fast).toBe('rs ▍ fastest');
  });
});
