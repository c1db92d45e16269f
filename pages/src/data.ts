// Loading the derived history files: index.json at start, series/<case>.json only when a case is
// opened (each fetched once). The history folder defaults to the page's own folder; a page built
// for another layout names it in <meta name="bee-bench-data" content="...">. Only same-origin
// paths inside that folder are ever requested.
import type { ExperimentIndex, ExperimentSummary } from '../../src/history/experiments.js';
import type { CaseSeriesFile, HistoryIndex, IndexCase } from '../../src/history/schema.js';

export class DataError extends Error {}

function dataBase(): URL {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="bee-bench-data"]');
  const raw = meta?.content.trim() || './';
  const base = new URL(raw.endsWith('/') ? raw : `${raw}/`, document.baseURI);
  if (base.origin !== location.origin) throw new DataError('The history folder must be on this site.');
  return base;
}

/** A relative path inside the history folder, resolved; anything else is refused. */
export function resolveDataPath(path: string, base: URL = dataBase()): URL {
  if (!/^[A-Za-z0-9._~@+-]+(\/[A-Za-z0-9._~@+-]+)*$/.test(path) || path.split('/').some((seg) => seg === '..' || seg === '.')) {
    throw new DataError(`Refusing to load ${JSON.stringify(path)}: not a plain relative path.`);
  }
  const url = new URL(path.split('/').map(encodeURIComponent).join('/'), base);
  if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname)) throw new DataError(`Refusing to load ${path}: outside the history folder.`);
  return url;
}

async function getJson(url: URL): Promise<unknown> {
  let res: Response;
  try {
    // Derived files change on every push; revalidate (a 304 is cheap) rather than trust a stale copy.
    res = await fetch(url, { cache: 'no-cache', credentials: 'same-origin' });
  } catch (e) {
    throw new DataError(`Could not fetch ${url.pathname}: ${(e as Error).message}`);
  }
  if (!res.ok) throw new DataError(`Could not fetch ${url.pathname}: HTTP ${res.status}`);
  try {
    return await res.json();
  } catch {
    throw new DataError(`${url.pathname} is not valid JSON.`);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export async function loadIndex(): Promise<HistoryIndex> {
  const v = await getJson(resolveDataPath('index.json'));
  if (!isObject(v) || v.schema !== 'bee-bench/history-index@1') throw new DataError('index.json is not a bee-bench/history-index@1 file.');
  if (!Array.isArray(v.cases) || !Array.isArray(v.branches) || !Array.isArray(v.runners) || !Array.isArray(v.groups) || !Array.isArray(v.scoreboard)) {
    throw new DataError('index.json is missing cases, branches, runners, groups or scoreboard.');
  }
  if (!Array.isArray(v.invalid)) v.invalid = [];
  return v as unknown as HistoryIndex;
}

const seriesCache = new Map<string, Promise<CaseSeriesFile>>();

export function loadSeries(c: IndexCase): Promise<CaseSeriesFile> {
  let p = seriesCache.get(c.id);
  if (!p) {
    p = (async () => {
      const v = await getJson(resolveDataPath(c.file));
      if (!isObject(v) || v.schema !== 'bee-bench/history-series@1' || !Array.isArray(v.series)) {
        throw new DataError(`${c.file} is not a bee-bench/history-series@1 file.`);
      }
      if (v.case !== c.id) throw new DataError(`${c.file} holds case ${String(v.case)}, not ${c.id}.`);
      return v as unknown as CaseSeriesFile;
    })();
    p.catch(() => seriesCache.delete(c.id));
    seriesCache.set(c.id, p);
  }
  return p;
}

/** experiments/index.json (the experiments page's list and trends). */
export async function loadExperimentIndex(): Promise<ExperimentIndex> {
  const v = await getJson(resolveDataPath('experiments/index.json'));
  if (!isObject(v) || v.schema !== 'bee-bench/experiment-index@1' || !Array.isArray(v.experiments) || !Array.isArray(v.trends)) {
    throw new DataError('experiments/index.json is not a bee-bench/experiment-index@1 file.');
  }
  return v as unknown as ExperimentIndex;
}

/** experiments/<id>.json: one experiment's summary and cells. */
export async function loadExperiment(id: string): Promise<ExperimentSummary> {
  const v = await getJson(resolveDataPath(`experiments/${id}.json`));
  if (!isObject(v) || v.schema !== 'bee-bench/experiment-summary@1' || !Array.isArray(v.cells)) {
    throw new DataError(`experiments/${id}.json is not a bee-bench/experiment-summary@1 file.`);
  }
  return v as unknown as ExperimentSummary;
}
