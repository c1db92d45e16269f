// The experiment report's figures as data (no drawing here): which panels, what each axis shows and
// in which unit, the categories and one dataset per arm / strategy / level / direction. charts.ts
// turns a FigureSpec into a Chart.js chart in the browser; tests read the specs directly. The
// figures follow Swarm's release reports: distributions by cell on log axes with panels by level
// and server, z-scores, the per-cell shift with its interval coloured by direction and
// significance, download time by level per strategy within a release (high outliers left out and
// counted), and uploads by size and level.
import { quantile } from '../../stats/index.js';
import { type Analysis, type Comparison, type SampleGroup } from '../analysis/analyse.js';
import { ARM_COLORS, DIRECTION_COLORS, levelName, sizeLabel } from '../analysis/names.js';

export interface DatasetSpec {
  label: string;
  color: string;
  /** box: values per category; errorbar: the points of this dataset, each naming its category. */
  data: (number[] | { x: string; y: number; yMin: number; yMax: number })[];
}

export interface PanelSpec {
  id: string;
  title: string;
  kind: 'box' | 'errorbar';
  xTitle: string;
  yTitle: string;
  logY: boolean;
  labels: string[];
  datasets: DatasetSpec[];
}

export interface FigureSpec {
  id: string;
  title: string;
  caption: string;
  panels: PanelSpec[];
}

const LEVEL_COLORS = ['#444444', '#1b9e77', '#d95f02', '#7570b3', '#e7298a'];
const STRATEGY_COLORS: Record<string, string> = { NONE: '#444444', DATA: '#1b9e77', PROX: '#7570b3', RACE: '#d95f02' };

const uniq = <T>(xs: T[]) => [...new Set(xs)];

export function experimentFigures(a: Analysis): FigureSpec[] {
  const downloads = a.samples.filter((g) => g.kind === 'download');
  const uploads = a.samples.filter((g) => g.kind === 'upload');
  const sizes = uniq(downloads.map((g) => g.size)).sort((x, y) => x - y);
  const rows = uniq(downloads.map((g) => `${g.level}|${g.strategy}`))
    .map((k) => ({ level: Number(k.split('|')[0]), strategy: k.split('|')[1]! }))
    .sort((x, y) => x.level - y.level || x.strategy.localeCompare(y.strategy));
  const servers = Math.max(0, ...a.arms.map((x) => x.nodes.length));
  const scopes = [0, ...(servers > 1 ? Array.from({ length: servers }, (_, i) => i + 1) : [])];
  const armColor = (label: string) => ARM_COLORS[a.arms.findIndex((x) => x.label === label) % ARM_COLORS.length]!;
  const pick = (list: SampleGroup[], arm: string, size: number, level: number, strategy: string, server: number, field: 'values' | 'z') =>
    list
      .filter((g) => g.arm === arm && g.size === size && g.level === level && g.strategy === strategy && (server === 0 || g.server === server))
      .flatMap((g) => g[field])
      .filter(Number.isFinite);
  const scopeName = (s: number) => (s === 0 ? 'all servers' : `server ${s}`);
  const figures: FigureSpec[] = [];

  figures.push({
    id: 'distributions',
    title: 'Download time by file size, per level and strategy, per server',
    caption: `Each box is one release in one cell (${a.arms.map((x) => x.label).join(', ')}); the points are the downloads (time of the first ok attempt), the box the quartiles, the whiskers 1.5 IQR. x: file size; y: seconds on a log scale. "all servers" pools a release's nodes; "server k" is the k-th node of each release.`,
    panels: rows.flatMap((r) =>
      scopes.map((s) => ({
        id: `dist-${r.level}-${r.strategy}-${s}`,
        title: `Level ${levelName(r.level)}, ${r.strategy}, ${scopeName(s)}`,
        kind: 'box' as const,
        xTitle: 'file size',
        yTitle: 'download time (s, log scale)',
        logY: true,
        labels: sizes.map(sizeLabel),
        datasets: a.arms.map((arm) => ({
          label: arm.label,
          color: armColor(arm.label),
          data: sizes.map((size) => pick(downloads, arm.label, size, r.level, r.strategy, s, 'values')),
        })),
      })),
    ),
  });

  figures.push({
    id: 'zscores',
    title: 'Download time z-scores by file size, per level and strategy',
    caption:
      'z = (t − mean) / sd within each cell and server over both releases, so sizes whose times differ by orders of magnitude share one axis; the panels pool the servers. Unitless; 0 is the cell mean.',
    panels: rows.map((r) => ({
      id: `z-${r.level}-${r.strategy}`,
      title: `Level ${levelName(r.level)}, ${r.strategy}: z-scores`,
      kind: 'box' as const,
      xTitle: 'file size',
      yTitle: 'z-score (sd from the cell mean)',
      logY: false,
      labels: sizes.map(sizeLabel),
      datasets: a.arms.map((arm) => ({
        label: arm.label,
        color: armColor(arm.label),
        data: sizes.map((size) => pick(downloads, arm.label, size, r.level, r.strategy, 0, 'z')),
      })),
    })),
  });

  const estimates = (family: 'download' | 'upload', id: string, what: string) => {
    const cells = a.comparisons.filter((c) => c.family === family && c.scope === 'pooled');
    if (cells.length === 0 || a.arms.length < 2) return;
    const A = a.arms[0]!.label;
    const B = a.arms[1]!.label;
    const dirs: { key: Comparison['direction']; label: string }[] = [
      { key: 'b-faster', label: `${B} faster (q < ${a.options.alpha})` },
      { key: 'a-faster', label: `${A} faster (q < ${a.options.alpha})` },
      { key: 'unclear', label: `no clear difference (q ≥ ${a.options.alpha})` },
    ];
    figures.push({
      id,
      title: `${what}: shift of ${B} against ${A} per cell, with 95 % interval`,
      caption: `Hodges–Lehmann estimate of ${B} − ${A} (seconds; below 0 = ${B} faster) with its 95 % interval, from a Mann–Whitney test per cell pooled over servers; colour by direction after Benjamini–Hochberg correction across the cells (${B} faster yellow, ${A} faster blue, grey otherwise). One panel per file size, since the scales differ.`,
      panels: uniq(cells.map((c) => c.size))
        .sort((x, y) => x - y)
        .map((size) => {
          const row = cells.filter((c) => c.size === size);
          const label = (c: Comparison) => (family === 'upload' ? levelName(c.level) : `${levelName(c.level)}, ${c.strategy}`);
          return {
            id: `${id}-${size}`,
            title: `${sizeLabel(size)}: ${B} − ${A}`,
            kind: 'errorbar' as const,
            xTitle: family === 'upload' ? 'erasure level' : 'erasure level, strategy',
            yTitle: `shift ${B} − ${A} (s)`,
            logY: false,
            labels: row.map(label),
            datasets: dirs.map((d) => ({
              label: d.label,
              color: DIRECTION_COLORS[d.key],
              data: row.filter((c) => c.direction === d.key && Number.isFinite(c.shift)).map((c) => ({ x: label(c), y: c.shift, yMin: c.lo, yMax: c.hi })),
            })),
          };
        }),
    });
  };
  estimates('download', 'estimates', 'Downloads');

  // Within one release: download time by level per strategy, high outliers left out.
  let dropped = 0;
  const levels = uniq(downloads.map((g) => g.level)).sort((x, y) => x - y);
  const strategies = uniq(downloads.map((g) => g.strategy as string)).sort();
  const byLevel: PanelSpec[] = [];
  for (const arm of a.arms)
    for (const size of sizes)
      byLevel.push({
        id: `bylevel-${a.arms.indexOf(arm)}-${size}`,
        title: `${arm.label}, ${sizeLabel(size)}: download time by level`,
        kind: 'box',
        xTitle: 'erasure level',
        yTitle: 'download time (s)',
        logY: false,
        labels: levels.map(levelName),
        datasets: strategies.map((st) => ({
          label: st,
          color: STRATEGY_COLORS[st] ?? '#444444',
          data: levels.map((level) => {
            const v = pick(downloads, arm.label, size, level, st, 0, 'values');
            const kept = withoutHighOutliers(v);
            dropped += v.length - kept.length;
            return kept;
          }),
        })),
      });
  figures.push({
    id: 'by-level',
    title: 'Download time by erasure level per strategy, within each release',
    caption: `One panel per release and file size, y scaled per panel. High outliers (more than 1.5 IQR above the upper quartile) are left out so the rest stays readable: ${dropped} point${dropped === 1 ? '' : 's'} in all. Level 0 downloads with NONE (no erasure coding to exploit).`,
    panels: byLevel,
  });

  const upLevels = uniq(uploads.map((g) => g.level)).sort((x, y) => x - y);
  const upSizes = uniq(uploads.map((g) => g.size)).sort((x, y) => x - y);
  figures.push({
    id: 'uploads',
    title: 'Upload time by file size and erasure level, per release',
    caption: `Each upload is a unique random payload; time until the reference is known, pooled over a release's servers. Boxes with their points; log scale.`,
    panels: upSizes.map((size) => ({
      id: `uploads-${size}`,
      title: `${sizeLabel(size)} uploads`,
      kind: 'box' as const,
      xTitle: 'release',
      yTitle: 'upload time (s, log scale)',
      logY: true,
      labels: a.arms.map((x) => x.label),
      datasets: upLevels.map((level) => ({
        label: `level ${levelName(level)}`,
        color: LEVEL_COLORS[level] ?? '#444444',
        data: a.arms.map((arm) => pick(uploads, arm.label, size, level, 'any', 0, 'values')),
      })),
    })),
  });
  estimates('upload', 'upload-estimates', 'Uploads');
  return figures;
}

/** Values at or below Q3 + 1.5 IQR (type 7 quartiles). */
export function withoutHighOutliers(v: readonly number[]): number[] {
  if (v.length < 4) return [...v];
  const q1 = quantile(v, 0.25);
  const q3 = quantile(v, 0.75);
  const fence = q3 + 1.5 * (q3 - q1);
  return v.filter((x) => x <= fence);
}
