// Escaping for every string a user or a result file controls (case ids, labels, branch names, commit
// messages, client versions, skip reasons, errors). Markdown output ends up on GitHub (PR comments,
// job summaries, rendered report.md); HTML output is a page people open locally. Nothing
// user-controlled reaches either without passing through one of these functions.

const MD_ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '|': '&#124;',
  '`': '&#96;',
  '[': '&#91;',
  ']': '&#93;',
  '\\': '&#92;',
  '*': '&#42;',
  _: '&#95;',
  '~': '&#126;',
  '!': '&#33;',
};

/** Zero-width space: invisible, but it breaks GitHub's mention and autolink patterns. */
const ZWSP = '\u200b';

/**
 * Text safe anywhere in GitHub-flavoured markdown, table cells included: no raw HTML, no cell
 * breaks, no code spans, links, images or emphasis, no heading or list at the start, no @-mention
 * (a zero-width space after "@", as Dependabot does), no issue reference or bare URL that GitHub
 * would link, no newline.
 */
export function mdText(value: unknown): string {
  return mdLineStart(mdInline(oneLine(value)));
}

/**
 * Bidirectional controls (embeddings, overrides, isolates, marks): text that reorders what follows
 * it on screen (a right-to-left override makes "gnp.exe" read "exe.png"). Shown as U+FFFD instead.
 */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const noBidi = (s: string) => s.replace(BIDI, '\ufffd');

const oneLine = (value: unknown) => noBidi(String(value ?? '')).replace(/\r\n?|\n|\u2028|\u2029/g, ' ');

/**
 * Plain text that GitHub shows as it is (an annotation, a log line): on one line, no @-mention or
 * team mention, no issue or cross-repository reference, no bare link, no bidirectional control.
 */
export function inert(value: unknown): string {
  return unlinked(oneLine(value)).replace(/@/g, `@${ZWSP}`);
}

/**
 * An identifier as inline code inside an HTML block (a <summary>), where markdown's backticks are
 * not code spans: a <code> element with HTML-escaped content, no mention, reference or link.
 */
export function htmlCode(value: unknown): string {
  return `<code>${htmlText(unlinked(oneLine(value))).replace(/@/g, '@&#8203;')}</code>`;
}

/** mdText's escaping within a line, without the line-start rule. */
function mdInline(s: string): string {
  return (
    unlinked(s)
      .replace(/[&<>|`[\]\\*~!]/g, (c) => MD_ENTITIES[c] ?? c)
      // An underscore between letters or digits cannot open or close emphasis (GFM): worker_threads stays as typed.
      .replace(/(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g, '&#95;')
      .replace(/@/g, '@&#8203;')
  );
}

/** At the start of a line "# ", "- ", "+ ", "1. " or "===" would start a heading, list or setext underline. */
function mdLineStart(s: string): string {
  return s.replace(/^(\s*)(#+|[-+=]+|\d+[.)])(?=\s|$)/, (_m, ws: string, lead: string) => `${ws}${lead.replace(/[#+\-=.)]/g, (c) => `&#${c.charCodeAt(0)};`)}`);
}

/**
 * What copyable text keeps byte-exact as code spans: http(s) URLs (trailing punctuation left out),
 * environment-variable names (BEE_GO_PATH), module@version and absolute paths. No backtick, pipe,
 * backslash, space, quote or angle bracket can be inside one, so a code span holds it safely even
 * in a table cell, and GitHub neither links nor mentions inside a code span.
 */
const COPY_TOKEN = new RegExp(
  [
    /https?:\/\/[A-Za-z0-9._~:/?#@!$&()*+,;=%-]*[A-Za-z0-9/_~=#-]/.source,
    /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/.source,
    /[A-Za-z0-9._/-]+@v?\d(?:[A-Za-z0-9._+-]*[A-Za-z0-9])?/.source,
    /(?<=^|[\s(=])\/[A-Za-z0-9._~+/-]*[A-Za-z0-9_~+/-]/.source,
  ].join('|'),
  'g',
);

/**
 * Text bee-bench writes itself, with the URLs, environment variables and module versions a reader
 * copies (a skipped client's reason and fix): those as code spans, copy-paste exact, the rest as
 * mdText. Untrusted text (what a runner reports) stays with mdText.
 */
export function mdCopyable(value: unknown): string {
  const s = oneLine(value);
  let out = '';
  let last = 0;
  for (const m of s.matchAll(COPY_TOKEN)) {
    out += `${mdInline(s.slice(last, m.index))}\`${m[0]}\``;
    last = m.index + m[0].length;
  }
  return mdLineStart(out + mdInline(s.slice(last)));
}

/**
 * No autolinks: issue references (#12, owner/repo#5, GH-12) and bare URLs (scheme:// or www.) get
 * a zero-width space where GitHub's patterns would match.
 */
function unlinked(s: string): string {
  return s
    .replace(/#(?=\d)/g, `#${ZWSP}`)
    .replace(/\b(GH)-(?=\d)/gi, `$1-${ZWSP}`)
    .replace(/:\/\//g, `:${ZWSP}//`)
    .replace(/\b(www)\./gi, `$1${ZWSP}.`);
}

/** Lines of a log for a <pre> block: HTML-escaped, no mention, issue reference or bare URL. */
export function preText(value: string): string {
  return htmlText(unlinked(value).replace(/@/g, `@${ZWSP}`));
}

const PLAIN_CODE = /^[A-Za-z0-9 _.:/=,+()@#-]*$/;

/**
 * An identifier as inline code when that is safe (ids, labels of plain characters), otherwise as
 * escaped text: a code span cannot escape a backtick or a pipe inside a table.
 */
export function mdCode(value: unknown): string {
  const s = String(value ?? '');
  return s.length > 0 && PLAIN_CODE.test(s) ? `\`${s}\`` : mdText(s);
}

/**
 * Prose that may hold `code spans` (spec docs): code spans become <code> with HTML-escaped content,
 * the rest is mdText. Safe in blockquotes and paragraphs; table cells use mdText.
 */
export function mdProse(value: unknown): string {
  const parts = String(value ?? '').split(/`([^`\r\n]+)`/);
  return parts.map((p, i) => (i % 2 === 1 ? `<code>${htmlText(p).replace(/\|/g, '&#124;')}</code>` : mdText(p))).join('');
}

/** Text safe inside an HTML element or a double- or single-quoted attribute. */
export function htmlText(value: unknown): string {
  return noBidi(String(value ?? '')).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * JSON for a `<script type="application/json">` block: "<", ">", "&" and the JS line separators are
 * written as \u escapes, so "</script>" or "<!--" in the data cannot end or alter the block;
 * JSON.parse restores them exactly.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * One RFC 4180 field. Numbers are written as they are; text is quoted when it holds a comma, quote,
 * CR or LF (quotes doubled), and text a spreadsheet would run as a formula (leading = + - @ tab CR)
 * is prefixed with "'" (OWASP CSV injection).
 */
export function csvField(value: string | number | boolean | null | undefined): string {
  if (value == null) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  let s = value;
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Truncate long free text (errors, commit messages) to n characters with an ellipsis. */
export function clip(value: string, n: number): string {
  const chars = [...value];
  return chars.length <= n ? value : `${chars.slice(0, Math.max(0, n - 1)).join('')}…`;
}

/**
 * An http(s) URL safe as a markdown link target or an href: anything else is refused (null), and
 * characters that could end the target early (spaces, quotes, brackets, parentheses) are
 * percent-encoded.
 */
export function safeUrl(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  return url.href.replace(/[\s"'<>()[\]`|\\]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}
