// A client the run was asked for and did not get (bee-go where the Go module proxy refuses it), as
// each report says it: report.md copy-paste exact for what bee-bench writes itself (the variable,
// the clone command, the proxy's URL), still defusing hostile text; report.csv a row of its own.
import type { Element, Root } from 'hast';
import { toText } from 'hast-util-to-text';
import rehypeRaw from 'rehype-raw';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { goCloneCommand } from '../../src/build/index.js';
import { mdCopyable } from '../../src/report/escape.js';
import { aggregate } from '../../src/report/model/aggregate.js';
import type { NotRun } from '../../src/report/model/types.js';
import { CSV_COLUMNS, renderCsv } from '../../src/report/render/csv.js';
import { renderHtml } from '../../src/report/render/html.js';
import { renderMarkdown } from '../../src/report/render/report-md.js';
import { parseCsv } from '../fixtures/csv.js';
import { HOSTILE, realSpec, syntheticResult } from './fixtures.js';

const { spec, hash } = realSpec();

// go's own words when the proxy does not serve the pinned bee-go (`go mod download -json`), and
// the fix `bee-bench run` writes beside them.
const PROXY_URL = 'https://proxy.golang.org/github.com/ethswarm-tools/bee-go/@v/v1.2.1.info';
const GO_SKIP: NotRun = {
  runner: 'go',
  status: 'skipped',
  reason: `the Go module proxy does not serve bee-go: github.com/ethswarm-tools/bee-go@v1.2.1: reading ${PROXY_URL}: 403 Forbidden; server response: This module version is not available.`,
  fix: `give a bee-go checkout with --go-client PATH or BEE_GO_PATH (${goCloneCommand()})`,
};
const URLS = [PROXY_URL, 'https://github.com/ethswarm-tools/bee-go'];

const model = aggregate(
  (['js', 'rs'] as const).map((r) => syntheticResult(r, spec, hash)),
  spec,
  { specHash: hash, notRun: [GO_SKIP] },
);

/** The sanitised tree GitHub would show for a markdown text. */
function githubView(markdown: string): Root {
  const processor = unified().use(remarkParse).use(remarkGfm).use(remarkRehype, { allowDangerousHtml: true }).use(rehypeRaw).use(rehypeSanitize);
  return processor.runSync(processor.parse(markdown)) as Root;
}

function elements(node: Root | Element, tag: string): Element[] {
  return node.children.flatMap((c) => (c.type === 'element' ? [...(c.tagName === tag ? [c] : []), ...elements(c, tag)] : []));
}

/** The text outside code spans (what GitHub would scan for mentions, references and links). */
const outsideCode = (md: string) => md.replace(/`[^`\n]*`/g, ' ');

describe('a skipped client in report.md', () => {
  const md = renderMarkdown(model);

  it('writes the variable, the clone command and every URL byte for byte, as code', () => {
    expect(md).toContain('`BEE_GO_PATH`');
    expect(md).toContain('`github.com/ethswarm-tools/bee-go@v1.2.1`');
    for (const url of URLS) expect(md).toContain(`\`${url}\``);
    expect(md).not.toMatch(/&#95;|&#8203;|\u200b/);
  });

  it('reads on GitHub exactly as written, the URLs as code, not links', () => {
    const view = githubView(md);
    const row = elements(view, 'tr').find((tr) => toText(tr).includes('bee-go'))!;
    expect(toText(elements(row, 'td')[1]!).trim()).toBe(`skipped: ${GO_SKIP.reason} (fix: ${GO_SKIP.fix})`);
    const notRanked = elements(view, 'p').find((p) => toText(p).startsWith('Not ranked'))!;
    expect(toText(notRanked)).toBe(`Not ranked: bee-go skipped: ${GO_SKIP.reason} (fix: ${GO_SKIP.fix}).`);
    const codes = elements(view, 'code').map((c) => toText(c));
    for (const url of URLS) expect(codes).toContain(url);
    expect(elements(view, 'a').filter((a) => toText(a).includes('ethswarm-tools'))).toEqual([]);
  });

  it('still defuses hostile text around the code spans: no HTML, mention, reference, link or cell break', () => {
    for (const h of [...HOSTILE, '@octocat see #12 and https://evil.example/x?a=1|b <b>x</b> BEE_GO_PATH=`rm -rf`']) {
      const out = mdCopyable(h);
      expect(out).not.toMatch(/\n|\r/);
      const rest = outsideCode(out);
      expect(rest).not.toMatch(/[<>|`[\]]/);
      expect(rest).not.toMatch(/@[A-Za-z]|(?<!&)#\d|:\/\//);
      // A code span holds no backtick, pipe or angle bracket: it cannot end early or break a table cell.
      for (const span of out.match(/`[^`]*`/g) ?? []) expect(span.slice(1, -1)).not.toMatch(/[`|<>\s]/);
    }
    const hostile = { runner: 'go' as const, status: 'failed' as const, reason: HOSTILE.join(' ') };
    const view = githubView(renderMarkdown(aggregate([syntheticResult('js', spec, hash)], spec, { specHash: hash, notRun: [hostile] })));
    expect([...elements(view, 'img'), ...elements(view, 'script')]).toEqual([]);
    expect(elements(view, 'a').map((a) => toText(a))).not.toContain('click');
    expect([...elements(view, 'h1'), ...elements(view, 'h2')].map((h) => toText(h)).filter((t) => t.includes('heading'))).toEqual([]);
    expect(elements(view, 'strong').map((e) => toText(e))).not.toContain('bold');
  });
});

describe('a skipped client in report.csv and report.html', () => {
  it('report.csv has a row of its own: runner, status, reason with fix; the columns keep their order', () => {
    const rows = parseCsv(renderCsv(model));
    expect(rows[0]).toEqual([...CSV_COLUMNS]);
    const at = (row: string[], column: (typeof CSV_COLUMNS)[number]) => row[CSV_COLUMNS.indexOf(column)];
    const go = rows.filter((r) => at(r, 'runner') === 'bee-go');
    expect(go).toHaveLength(1);
    expect(at(go[0]!, 'status')).toBe('skipped');
    expect(at(go[0]!, 'case')).toBe('');
    expect(at(go[0]!, 'skip_reason_or_error')).toBe(`${GO_SKIP.reason} (fix: ${GO_SKIP.fix})`);
    // The measured rows follow, as before.
    expect(rows[1]).toBe(go[0]);
    expect(rows.slice(2).every((r) => at(r, 'case') !== '' && at(r, 'runner') !== 'bee-go')).toBe(true);
  });

  it('report.html names it with the fix, text exact', () => {
    const html = renderHtml(model, { chartJs: null });
    expect(html).toContain('BEE_GO_PATH');
    for (const url of URLS) expect(html).toContain(url);
  });
});
