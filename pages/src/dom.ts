// DOM helpers for the trend site. Everything that comes from a record (commit messages, branch
// names, case ids, labels, authors, versions) reaches the page through these helpers as text: no
// helper here parses HTML, and attributes that could run code or load something are refused.

type Child = Node | string | number | null | undefined | false;

export interface Props {
  class?: string;
  /** Plain attributes (aria-*, role, id, type, ...). Event handlers and URL attributes are refused. */
  attrs?: Record<string, string>;
  text?: string;
}

const FORBIDDEN_ATTR = /^(on|href$|src$|srcdoc$|action$|formaction$|style$|xlink:href$)/i;

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (props.class) node.className = props.class;
  for (const [k, v] of Object.entries(props.attrs ?? {})) {
    if (FORBIDDEN_ATTR.test(k)) throw new Error(`el(): attribute ${k} must be set through a dedicated helper`);
    node.setAttribute(k, v);
  }
  if (props.text !== undefined) node.textContent = props.text;
  append(node, ...children);
  return node;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    parent.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

export function clear(node: Node): void {
  while (node.firstChild) node.removeChild(node.firstChild);
}

/** An absolute http(s) URL, normalised, or null for anything else (javascript:, data:, relative, junk). */
export function safeHttpUrl(url: string | undefined | null): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

/** A link to an external page when url is http(s); otherwise the text alone. */
export function externalLink(url: string | undefined | null, text: string, props: Props = {}): HTMLElement {
  const href = safeHttpUrl(url);
  if (!href) return el('span', { ...props, text });
  const a = el('a', { ...props, text });
  a.href = href;
  a.rel = 'noopener noreferrer';
  a.target = '_blank';
  return a;
}

/** A link inside the site: hash is built by permalink.ts from URLSearchParams, so it is always "#...". */
export function internalLink(hash: string, text: string, props: Props = {}): HTMLAnchorElement {
  if (!hash.startsWith('#')) throw new Error('internalLink(): hash links only');
  const a = el('a', { ...props, text });
  a.href = hash;
  return a;
}

/**
 * A dotted name (a case id) that line-breaks only after its dots: each segment, with its dot,
 * never wraps, and a <wbr> follows each dot. textContent stays the name.
 */
export function dottedName(name: string): Node[] {
  const parts = name.split(/(?<=\.)/);
  return parts.flatMap((part, i) => {
    const seg = el('span', { class: 'nowrap', text: part });
    return i < parts.length - 1 ? [seg, el('wbr')] : [seg];
  });
}

/** The first line of a commit message, trimmed. */
export function firstLine(message: string): string {
  const i = message.search(/\r|\n/);
  return (i < 0 ? message : message.slice(0, i)).trim();
}

const SVG_NS = 'http://www.w3.org/2000/svg';

export function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number> = {}): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (FORBIDDEN_ATTR.test(k)) throw new Error(`svg(): attribute ${k} refused`);
    node.setAttribute(k, String(v));
  }
  return node;
}
