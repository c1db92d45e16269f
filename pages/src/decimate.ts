// Long series (thousands of points per runner) are drawn decimated: Chart.js's decimation plugin
// (LTTB, about one point per pixel of width, recomputed on every zoom, so a zoomed range shows all
// its points), plus two rules of ours: shift and version markers always stay drawn, because
// decimation would otherwise drop most of them; and per-point styles (dataset.$pointStyles) are
// computed as arrays for the points actually drawn, since scriptable options resolved per point
// cost more than the decimation saves. The full data stays the dataset's source of truth: tables,
// downloads and tooltips read it (fullData), never the decimated copy.
import { Decimation, type Chart, type Plugin } from 'chart.js';
import type { SeriesPoint } from '../../src/history/schema.js';

interface Marked {
  x: number;
  pt: SeriesPoint;
  versionFrom?: string;
}

interface DecimatedDataset<T> {
  data: T[];
  /** Per-point options (pointStyle, pointRadius, ...) as arrays for the drawn points, in their order. */
  $pointStyles?: (drawn: readonly T[]) => Record<string, unknown[]>;
  /** Set by the decimation plugin: the full data while `data` returns the decimated copy. */
  _data?: T[];
  _decimated?: T[];
}

/** Every point of a dataset, decimated or not. */
export function fullData<T>(ds: { data: T[] }): T[] {
  return (ds as DecimatedDataset<T>)._data ?? ds.data;
}

const isMarker = (d: Marked): boolean => d.pt.shift !== undefined || d.versionFrom !== undefined;

/** Sorted merge of the decimated points and the markers (both in x order), without duplicates. */
function withMarkers<T extends Marked>(decimated: readonly T[], markers: readonly T[]): T[] {
  const out: T[] = [];
  let j = 0;
  for (const d of decimated) {
    while (j < markers.length && markers[j]!.x < d.x) out.push(markers[j++]!);
    if (j < markers.length && markers[j] === d) j++;
    out.push(d);
  }
  while (j < markers.length) out.push(markers[j++]!);
  return out;
}

const keepMarkers: Plugin = {
  id: 'beeBenchKeepMarkers',
  beforeElementsUpdate(chart: Chart) {
    for (const ds of chart.data.datasets as unknown as Array<DecimatedDataset<Marked>>) {
      if (ds._data && ds._decimated) {
        const { min, max } = chart.scales['x']!;
        const markers = ds._data.filter((d) => isMarker(d) && d.x >= min && d.x <= max);
        if (markers.length > 0) ds._decimated = withMarkers(ds._decimated, markers);
      }
      if (ds.$pointStyles) Object.assign(ds, ds.$pointStyles(ds.data));
    }
  },
};

/** The plugins, in the order they must run (decimation first). */
export const DECIMATION_PLUGINS: Plugin[] = [Decimation, keepMarkers];

/** Options for plugins.decimation: LTTB above 4 points per pixel of chart width (Chart.js's default threshold). */
export const DECIMATION = { enabled: true, algorithm: 'lttb' as const };
