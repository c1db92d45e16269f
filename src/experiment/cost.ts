// What a design costs before it runs: units, upload and download requests (at least one download
// per unit, at most `attempts`), payload bytes each way, and the chunks to stamp (payload chunks
// with their intermediate chunks and the parity an erasure level adds: the ratios measured on a
// Bee dev node's tags for a 1 MiB upload, 259/288/324/361/915 chunks at levels 0..4).
import { cellsOf } from './design.js';
import type { Design } from './schema.js';

/** Chunks stamped per 4 KiB of payload, by erasure level (1 MiB on a dev node: 259, 288, 324, 361, 915 of 256 data chunks). */
export const CHUNKS_PER_DATA_CHUNK = [259 / 256, 288 / 256, 324 / 256, 361 / 256, 915 / 256] as const;

export interface DesignCost {
  units: number;
  uploads: number;
  downloadsMin: number;
  downloadsMax: number;
  uploadBytes: number;
  downloadBytesMin: number;
  /** Chunks stamped over all uploads (an estimate from the measured ratios). */
  chunks: number;
  /** Per release: units and payload bytes. */
  perRelease: Record<string, { units: number; bytes: number }>;
}

export function designCost(d: Design): DesignCost {
  const cells = cellsOf(d);
  const perRelease: DesignCost['perRelease'] = {};
  let bytes = 0;
  let chunks = 0;
  for (const n of d.nodes) {
    const r = (perRelease[n.release] ??= { units: 0, bytes: 0 });
    for (const c of cells) {
      r.units += d.replicates;
      r.bytes += c.size * d.replicates;
      bytes += c.size * d.replicates;
      chunks += Math.ceil(c.size / 4096) * CHUNKS_PER_DATA_CHUNK[c.level]! * d.replicates;
    }
  }
  const units = cells.length * d.nodes.length * d.replicates;
  return {
    units,
    uploads: units,
    downloadsMin: units,
    downloadsMax: units * d.attempts,
    uploadBytes: bytes,
    downloadBytesMin: bytes,
    chunks: Math.round(chunks),
    perRelease,
  };
}

const gb = (b: number) => `${(b / 1e9).toFixed(b < 1e9 ? 3 : 1)} GB`;

/** One line for the log: "4,860 units: 4,860 uploads (49.5 GB), 4,860..72,900 downloads (≥ 49.5 GB), ~… chunks stamped". */
export function describeCost(c: DesignCost): string {
  const f = (n: number) => n.toLocaleString('en-US');
  return `${f(c.units)} units: ${f(c.uploads)} uploads (${gb(c.uploadBytes)}), ${f(c.downloadsMin)}..${f(c.downloadsMax)} downloads (at least ${gb(c.downloadBytesMin)}), about ${f(c.chunks)} chunks stamped`;
}
