// The named JavaScript function an anonymous one is written in, from the script's source: V8
// compiles a callback (`segments.map(segment => …)`) as a function of its own, so a change made
// through it would be listed under the callback, not under the function whose code changed. The
// V8 symbolizer (v8-symbols.ts) adds the enclosing function to an anonymous function's name, and
// folding (fold.ts) lists the callback's cost under that function.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { parse, type Node } from 'acorn';

/** The named function around the code at `line`/`column` (1-based, V8's script positions) of `path`, or null. */
export type EnclosingAt = (path: string, line: number, column: number) => string | null;

interface Scope {
  name: string;
  /** Start and end offsets in the script (acorn's, UTF-16). */
  start: number;
  end: number;
}

/** A script's named functions and where its lines start (line breaks as acorn and V8 count them). */
interface Scopes {
  scopes: Scope[];
  lineStarts: number[];
}

type AnyNode = Node & Record<string, unknown>;

const keyName = (key: unknown): string | null => {
  const k = key as AnyNode | undefined;
  if (!k) return null;
  if (k.type === 'Identifier' || k.type === 'PrivateIdentifier') return String(k.name);
  if (k.type === 'Literal') return String(k.value);
  return null;
};

/** Named functions of a script, each with its extent, as V8 names them (declarations, methods, `const f = () => …`). */
function namedScopes(text: string): Scopes {
  // By offsets, without acorn's line and column per node (most of a cold parse's garbage): a
  // position is turned into an offset through the script's line starts instead.
  let ast: AnyNode;
  try {
    ast = parse(text, { ecmaVersion: 'latest', sourceType: 'module', allowHashBang: true }) as unknown as AnyNode;
  } catch {
    ast = parse(text, {
      ecmaVersion: 'latest',
      sourceType: 'script',
      allowHashBang: true,
      allowReturnOutsideFunction: true,
    }) as unknown as AnyNode;
  }
  const scopes: Scope[] = [];
  const isFunction = (n: AnyNode | undefined) => !!n && /^(?:FunctionDeclaration|FunctionExpression|ArrowFunctionExpression)$/.test(n.type);
  const add = (fn: AnyNode, name: string | null) => {
    if (!name) return;
    scopes.push({ name, start: fn.start, end: fn.end });
  };
  const walk = (n: AnyNode, parent: AnyNode | null, className: string | null) => {
    if ((n.type === 'FunctionDeclaration' || n.type === 'FunctionExpression') && n.id) add(n, keyName(n.id));
    else if (isFunction(n) && parent) {
      if (parent.type === 'VariableDeclarator' && parent.init === n) add(n, keyName(parent.id));
      else if (parent.type === 'AssignmentExpression' && parent.right === n)
        add(n, keyName((parent.left as AnyNode).type === 'Identifier' ? parent.left : null));
      else if ((parent.type === 'Property' || parent.type === 'PropertyDefinition') && parent.value === n) add(n, keyName(parent.key));
      else if (parent.type === 'MethodDefinition' && parent.value === n) {
        const kind = String(parent.kind);
        const name = keyName(parent.key);
        add(n, kind === 'constructor' ? className : kind === 'get' || kind === 'set' ? `${kind} ${name}` : name);
      }
    }
    const cls = n.type === 'ClassDeclaration' || n.type === 'ClassExpression' ? keyName(n.id) : className;
    for (const v of Object.values(n)) {
      if (Array.isArray(v)) {
        for (const c of v) if (c && typeof c === 'object' && typeof (c as AnyNode).type === 'string') walk(c as AnyNode, n, cls);
      } else if (v && typeof v === 'object' && typeof (v as AnyNode).type === 'string') walk(v as AnyNode, n, cls);
    }
  };
  walk(ast, null, null);
  const lineStarts = [0];
  for (const m of text.matchAll(LINE_BREAK)) lineStarts.push(m.index + m[0].length);
  return { scopes, lineStarts };
}

/** ECMAScript's line terminators, as acorn and V8 count lines. */
const LINE_BREAK = /\r\n?|\n|\u2028|\u2029/g;

/**
 * Parsed files, shared by every lookup of the process (a run's three counting processes read the
 * same packages: cafe-utility's index.js takes a third of a second to parse), kept while the
 * file's size and time are the same; and by their text, so base's and head's copies of the same
 * package, built in folders of their own, are parsed once.
 */
const parsed = new Map<string, { stamp: string; scopes: Scopes | null }>();
const byText = new Map<string, Scopes | null>();

function scopesOf(path: string): Scopes | null {
  let stamp = '';
  try {
    const st = statSync(path);
    stamp = `${st.size}:${st.mtimeMs}`;
  } catch {
    return null;
  }
  const got = parsed.get(path);
  if (got?.stamp === stamp) return got.scopes;
  let scopes: Scopes | null;
  try {
    const text = readFileSync(path, 'utf8');
    const key = createHash('sha256').update(text).digest('hex');
    if (!byText.has(key)) {
      let got: Scopes | null;
      try {
        got = namedScopes(text);
      } catch {
        got = null;
      }
      byText.set(key, got);
    }
    scopes = byText.get(key)!;
  } catch {
    scopes = null;
  }
  parsed.set(path, { stamp, scopes });
  return scopes;
}

/** An EnclosingAt over the files where the dumps are read, each parsed once (a file that cannot be read or parsed has none). */
export function enclosingLookup(): EnclosingAt {
  return (path, line, column) => {
    const plain = path.startsWith('file://') ? decodeURIComponent(path.slice('file://'.length)) : path;
    if (!isAbsolute(plain)) return null;
    const got = scopesOf(plain);
    if (!got) return null;
    // V8's line is 1-based, its column 1-based.
    const at = line >= 1 && line <= got.lineStarts.length ? got.lineStarts[line - 1]! + column - 1 : Infinity;
    let inner: Scope | null = null;
    for (const s of got.scopes) {
      if (s.start < at && at < s.end && (!inner || inner.start < s.start)) inner = s;
    }
    return inner?.name ?? null;
  };
}
