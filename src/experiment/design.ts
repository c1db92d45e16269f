// The experiment's design: read from a JSON file (bee-bench/experiment-design@1) or built from
// CLI-style words (sizes "1KB,10MB", levels "0,2,4", nodes "a=2.7.0@http://127.0.0.1:1633"), checked
// with the schema, and expanded into its cells (size × level × strategy, with the seed's coupling:
// level 0 downloads with NONE, a level above 0 with each strategy asked for).
import { readFileSync } from 'node:fs';
import { describeIssues, InputError } from '../spec/errors.js';
import { DESIGN_SCHEMA, DesignSchema, type Design, type DesignInput, type Level, type Strategy } from './schema.js';

export interface Cell {
  size: number;
  level: Level;
  strategy: Strategy;
}

/** The key of a cell, used in unit keys and reports: "1000-L2-DATA". */
export const cellKey = (c: Cell): string => `${c.size}-L${c.level}-${c.strategy}`;

/** A unit's key: its cell, node and replicate ("1000-L2-DATA@a#3"); one upload and its downloads. */
export const unitKey = (c: Cell, node: string, rep: number): string => `${cellKey(c)}@${node}#${rep}`;

/** The cells of a design, in a fixed order (sizes, then levels, then strategies as written). */
export function cellsOf(d: Pick<Design, 'sizes' | 'levels' | 'strategies'>): Cell[] {
  const cells: Cell[] = [];
  for (const size of d.sizes)
    for (const level of d.levels) {
      const strategies: Strategy[] = level === 0 ? ['NONE'] : d.strategies;
      for (const strategy of strategies) cells.push({ size, level, strategy });
    }
  return cells;
}

const SIZE_UNITS: Record<string, number> = { B: 1, KB: 1e3, MB: 1e6, GB: 1e9, KIB: 1024, MIB: 1024 ** 2, GIB: 1024 ** 3 };

/** "1KB" → 1000, "10MiB" → 10485760, "512" → 512 (KB/MB decimal, KiB/MiB binary). */
export function parseSize(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([A-Za-z]*)\s*$/.exec(text);
  const unit = SIZE_UNITS[(m?.[2] || 'B').toUpperCase()];
  const n = m && unit ? Math.round(Number(m[1]) * unit) : NaN;
  if (!Number.isInteger(n) || n < 1)
    throw new InputError(`size "${text}"`, ['not a byte count'], 'write it like 1024, 1KB, 10MB or 1MiB (KB/MB are decimal, KiB/MiB binary)');
  return n;
}

/** "a=2.7.0@http://127.0.0.1:1633" or "a=2.7.0@http://…#<batch id>": one node of the design. */
export function parseNode(text: string): DesignInput['nodes'][number] {
  const m = /^([^=]+)=([^@]+)@([^#]+)(?:#([0-9a-fA-F]{64}))?$/.exec(text.trim());
  if (!m) throw new InputError(`node "${text}"`, ['not LABEL=RELEASE@URL[#BATCH_ID]'], 'write it like a=2.7.0@http://127.0.0.1:1633');
  return { label: m[1]!, release: m[2]!, url: m[3]!, ...(m[4] ? { batch_id: m[4].toLowerCase() } : {}) };
}

const list = (text: string): string[] =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

/** What the CLI may say about a design; every field optional (the defaults fill the rest). */
export interface DesignWords {
  sizes?: string;
  levels?: string;
  strategies?: string;
  fallback?: boolean;
  nodes?: string[];
  replicates?: string;
  attempts?: string;
  upload?: string;
  endpoint?: string;
  wait?: string;
  ceiling?: string;
  poll?: string;
  timeout?: string;
  seed?: string;
  order?: string;
}

/** The defaults of a design built from words: the seed study's factors at a small scale. */
export const DESIGN_DEFAULTS = {
  sizes: '1KB,10KB,100KB',
  levels: '0,2,4',
  strategies: 'DATA,RACE',
  replicates: 5,
  attempts: 15,
  upload: 'deferred',
  endpoint: 'bytes',
  wait: { signal: 'auto', ceiling_s: 7200, poll_s: 10 },
  timeout_s: 120,
} as const;

const numberWord = (text: string | undefined, field: string): number | undefined => {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isFinite(n)) throw new InputError(`${field} "${text}"`, ['not a number']);
  return n;
};

/** A design from CLI words; checked by the schema (errors name the field). */
export function designFromWords(w: DesignWords): Design {
  const input = {
    schema: DESIGN_SCHEMA,
    sizes: list(w.sizes ?? DESIGN_DEFAULTS.sizes).map(parseSize),
    levels: list(w.levels ?? DESIGN_DEFAULTS.levels).map((l) => numberWord(l, 'level')),
    strategies: list(w.strategies ?? DESIGN_DEFAULTS.strategies).map((s) => s.toUpperCase()),
    ...(w.fallback !== undefined ? { fallback: w.fallback } : {}),
    nodes: (w.nodes ?? []).map(parseNode),
    replicates: numberWord(w.replicates, 'replicates') ?? DESIGN_DEFAULTS.replicates,
    attempts: numberWord(w.attempts, 'attempts') ?? DESIGN_DEFAULTS.attempts,
    upload: w.upload ?? DESIGN_DEFAULTS.upload,
    endpoint: w.endpoint ?? DESIGN_DEFAULTS.endpoint,
    wait: {
      signal: w.wait ?? DESIGN_DEFAULTS.wait.signal,
      ceiling_s: numberWord(w.ceiling, 'ceiling') ?? DESIGN_DEFAULTS.wait.ceiling_s,
      poll_s: numberWord(w.poll, 'poll') ?? DESIGN_DEFAULTS.wait.poll_s,
    },
    timeout_s: numberWord(w.timeout, 'timeout') ?? DESIGN_DEFAULTS.timeout_s,
    ...(w.seed ? { seed: w.seed.toLowerCase() } : {}),
    order: w.order ?? 'blocked',
  };
  return checkDesign(input, 'the design flags');
}

/** Checks a design; the error names where it came from and each wrong field. */
export function checkDesign(input: unknown, where: string): Design {
  const r = DesignSchema.safeParse(input);
  if (!r.success) throw new InputError(where, describeIssues(r.error), `a ${DESIGN_SCHEMA} design (docs/experiment.md)`);
  if (r.data.nodes.length === 0) throw new InputError(where, ['no node'], 'give at least one node (LABEL=RELEASE@URL)');
  return r.data;
}

/** A design file (JSON). */
export function loadDesign(file: string): Design {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new InputError(`design ${file}`, [`cannot read it: ${(e as Error).message}`]);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new InputError(`design ${file}`, [`not JSON: ${(e as Error).message}`], 'correct the JSON syntax');
  }
  return checkDesign(json, `design ${file}`);
}

/** The releases of a design, in the order their nodes are listed. */
export const releasesOf = (d: Design): string[] => [...new Set(d.nodes.map((n) => n.release))];
