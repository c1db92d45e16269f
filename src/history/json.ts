// Deterministic JSON for everything the history store writes: object keys sorted, so the bytes of a
// file depend only on its value (a fresh derivation can be compared with the committed one byte
// for byte). Arrays keep their order; callers sort them where order is not meaningful.

/** Compact JSON with sorted keys and a trailing newline. `undefined` members are dropped, as in JSON.stringify. */
export function stableJson(value: unknown): string {
  return `${JSON.stringify(value, sortKeys) ?? 'null'}\n`;
}

/** JSON.stringify replacer: plain objects with sorted keys (returned as is when already sorted). */
function sortKeys(_key: string, v: unknown): unknown {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
  const keys = Object.keys(v);
  let sorted = true;
  for (let i = 1; i < keys.length; i++) {
    if ((keys[i - 1] as string) > (keys[i] as string)) {
      sorted = false;
      break;
    }
  }
  if (sorted) return v;
  keys.sort();
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = (v as Record<string, unknown>)[k];
  return out;
}

/**
 * Indented JSON with sorted keys and a trailing newline; arrays of numbers/strings stay on one line
 * so a record's raw samples do not take one line each.
 */
export function stableJsonPretty(value: unknown): string {
  return `${write(value, '  ', '')}\n`;
}

function write(v: unknown, indent: string | null, pad: string): string {
  if (v === null || typeof v !== 'object') {
    if (typeof v === 'number' && !Number.isFinite(v)) return 'null';
    return JSON.stringify(v) ?? 'null';
  }
  const inner = indent === null ? '' : pad + indent;
  const nl = indent === null ? '' : '\n';
  const colon = indent === null ? ':' : ': ';
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    const flat = indent === null || v.every((x) => x === null || typeof x !== 'object');
    if (flat) return `[${v.map((x) => write(x, indent, pad)).join(indent === null ? ',' : ', ')}]`;
    return `[${nl}${v.map((x) => inner + write(x, indent, inner)).join(`,${nl}`)}${nl}${pad}]`;
  }
  const keys = Object.keys(v as object)
    .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
    .sort();
  if (keys.length === 0) return '{}';
  const body = keys.map((k) => `${inner}${JSON.stringify(k)}${colon}${write((v as Record<string, unknown>)[k], indent, inner)}`);
  return `{${nl}${body.join(`,${nl}`)}${nl}${pad}}`;
}
