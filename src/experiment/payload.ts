// The unique payload of each upload, by the rule the runners' `ops` share: the first `size` bytes of
// SHA-256(seed ‖ u64be(0)) ‖ SHA-256(seed ‖ u64be(1)) ‖ … (seed = 32 raw bytes). The engine never
// builds the payload whole: it hashes it block by block to know the sha256 a download must match.
// Each unit's seed comes from the run's seed and the unit's key, so no two uploads are alike and a
// resumed run uploads the same bytes again.
import { createHash } from 'node:crypto';

/** The unit's payload seed: SHA-256(run seed ‖ "payload/" ‖ unit key), 64 hex. */
export function unitSeed(runSeedHex: string, unit: string): string {
  return createHash('sha256').update(Buffer.from(runSeedHex, 'hex')).update(`payload/${unit}`, 'utf8').digest('hex');
}

/** Calls `sink` with consecutive pieces of the payload (at most `chunk` bytes each). */
export function payloadPieces(seedHex: string, size: number, sink: (piece: Buffer) => void, chunk = 1 << 16): void {
  const seed = Buffer.from(seedHex, 'hex');
  const counter = Buffer.alloc(8);
  const piece = Buffer.alloc(Math.max(32, chunk - (chunk % 32)));
  let block = 0n;
  let left = size;
  while (left > 0) {
    let filled = 0;
    while (filled < piece.length && filled < left) {
      counter.writeBigUInt64BE(block++);
      const h = createHash('sha256').update(seed).update(counter).digest();
      h.copy(piece, filled, 0, Math.min(32, left - filled));
      filled += Math.min(32, left - filled);
    }
    sink(piece.subarray(0, filled));
    left -= filled;
  }
}

/** The whole payload (tests and small sizes only). */
export function payload(seedHex: string, size: number): Buffer {
  const parts: Buffer[] = [];
  payloadPieces(seedHex, size, (p) => parts.push(Buffer.from(p)));
  return Buffer.concat(parts);
}

/** SHA-256 of the payload, hex, in memory bounded by one piece. */
export function payloadSha256(seedHex: string, size: number): string {
  const h = createHash('sha256');
  payloadPieces(seedHex, size, (p) => h.update(p));
  return h.digest('hex');
}
