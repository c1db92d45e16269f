// Reading an untrusted zip (a workflow artifact written by a job that ran client code) without
// trusting anything it claims: only the entries asked for are read, only plain files with plain
// relative names, every entry inflated as a stream whose output is counted and cut off at its limit
// (a 2 GiB deflate bomb stops after `maxEntryBytes`, whatever its headers say), a total limit over
// all entries, and each entry's CRC checked. Symlinks, zip64 and encrypted entries are refused.
import { crc32, createInflateRaw } from 'node:zlib';

export class ZipError extends Error {
  override name = 'ZipError';
}

export interface ZipLimits {
  /** Largest uncompressed size of one entry. */
  maxEntryBytes: number;
  /** Largest uncompressed size of all entries read together. */
  maxTotalBytes: number;
  /** Most entries the central directory may list. */
  maxEntries: number;
}

interface Entry {
  name: string;
  method: number;
  flags: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
  mode: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;

/** A name that stays inside the folder it is extracted to: relative, no "..", no backslash or NUL. */
export function safeEntryName(name: string): boolean {
  if (name.length === 0 || name.length > 255 || name.startsWith('/') || /[\\\0:]/.test(name)) return false;
  return name.split('/').every((p) => p !== '' && p !== '.' && p !== '..');
}

function centralDirectory(zip: Buffer, maxEntries: number): Entry[] {
  // The end record sits in the last 22 + 65535 bytes (its comment is at most 65535 bytes).
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ZipError('not a zip file (no end of central directory record)');
  const count = zip.readUInt16LE(eocd + 10);
  const size = zip.readUInt32LE(eocd + 12);
  const offset = zip.readUInt32LE(eocd + 16);
  if (count === 0xffff || size === 0xffffffff || offset === 0xffffffff) throw new ZipError('zip64 archives are not accepted');
  if (count > maxEntries) throw new ZipError(`${count} entries, more than the ${maxEntries} accepted`);
  if (offset + size > eocd) throw new ZipError('central directory runs past its end record');
  const entries: Entry[] = [];
  let at = offset;
  for (let n = 0; n < count; n++) {
    if (at + 46 > eocd || zip.readUInt32LE(at) !== CENTRAL) throw new ZipError(`central directory entry ${n} is malformed`);
    const nameLen = zip.readUInt16LE(at + 28);
    const extraLen = zip.readUInt16LE(at + 30);
    const commentLen = zip.readUInt16LE(at + 32);
    const madeBy = zip.readUInt16LE(at + 4) >> 8;
    const external = zip.readUInt32LE(at + 38);
    entries.push({
      name: zip.toString('utf8', at + 46, at + 46 + nameLen),
      flags: zip.readUInt16LE(at + 8),
      method: zip.readUInt16LE(at + 10),
      crc: zip.readUInt32LE(at + 16),
      compressedSize: zip.readUInt32LE(at + 20),
      size: zip.readUInt32LE(at + 24),
      localOffset: zip.readUInt32LE(at + 42),
      // Unix modes live in the high half of the external attributes when made on Unix (3).
      mode: madeBy === 3 ? external >>> 16 : 0,
    });
    at += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

/** Inflates raw deflate data as a stream, counting output; rejects as soon as it passes `limit`. */
export function inflateCapped(data: Buffer, limit: number, what: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const inflate = createInflateRaw();
    const chunks: Buffer[] = [];
    let total = 0;
    let done = false;
    inflate.on('data', (chunk: Buffer) => {
      if (done) return;
      total += chunk.length;
      if (total > limit) {
        done = true;
        inflate.destroy();
        reject(new ZipError(`${what}: inflates past ${limit} bytes; stopped after ${total}`));
        return;
      }
      chunks.push(chunk);
    });
    inflate.on('error', (e) => {
      if (!done) {
        done = true;
        reject(new ZipError(`${what}: bad deflate data: ${e.message}`));
      }
    });
    inflate.on('end', () => {
      if (!done) {
        done = true;
        resolve(Buffer.concat(chunks));
      }
    });
    // Fed in slices, so a bomb is cut off after a slice's worth of output, not after all of it.
    let at = 0;
    const feed = () => {
      while (!done && at < data.length) {
        const slice = data.subarray(at, at + 16 * 1024);
        at += slice.length;
        if (!inflate.write(slice)) {
          inflate.once('drain', feed);
          return;
        }
      }
      if (!done) inflate.end();
    };
    feed();
  });
}

/**
 * The entries of `zip` whose names `want` accepts, as name -> bytes. Throws ZipError on anything
 * outside the limits or the rules above; entries not wanted are never inflated.
 */
export async function readZipEntries(zip: Buffer, want: (name: string) => boolean, limits: ZipLimits): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  let total = 0;
  for (const e of centralDirectory(zip, limits.maxEntries)) {
    if (e.name.endsWith('/')) continue; // a folder entry
    if (!safeEntryName(e.name)) throw new ZipError(`entry ${JSON.stringify(e.name.slice(0, 100))}: not a plain relative name`);
    if (e.mode !== 0 && (e.mode & S_IFMT) !== S_IFREG)
      throw new ZipError(`entry ${e.name}: not a regular file (mode ${e.mode.toString(8)}; symlinks are refused)`);
    if (!want(e.name)) continue;
    if (out.has(e.name)) throw new ZipError(`entry ${e.name}: listed twice`);
    if (e.flags & 1) throw new ZipError(`entry ${e.name}: encrypted`);
    if (e.size === 0xffffffff || e.compressedSize === 0xffffffff) throw new ZipError(`entry ${e.name}: zip64 sizes are not accepted`);
    if (e.size > limits.maxEntryBytes) throw new ZipError(`entry ${e.name}: claims ${e.size} bytes, more than the ${limits.maxEntryBytes} accepted`);
    const at = e.localOffset;
    if (at + 30 > zip.length || zip.readUInt32LE(at) !== LOCAL) throw new ZipError(`entry ${e.name}: local header missing`);
    const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
    if (start + e.compressedSize > zip.length) throw new ZipError(`entry ${e.name}: data runs past the end of the file`);
    const data = zip.subarray(start, start + e.compressedSize);
    const room = Math.min(limits.maxEntryBytes, limits.maxTotalBytes - total);
    let bytes: Buffer;
    if (e.method === 0) {
      if (data.length > room) throw new ZipError(`entry ${e.name}: ${data.length} bytes, past the limit`);
      bytes = Buffer.from(data);
    } else if (e.method === 8) {
      bytes = await inflateCapped(data, room, `entry ${e.name}`);
    } else {
      throw new ZipError(`entry ${e.name}: compression method ${e.method} is not accepted (stored or deflate only)`);
    }
    if (bytes.length !== e.size) throw new ZipError(`entry ${e.name}: ${bytes.length} bytes, but the directory says ${e.size}`);
    if (crc32(bytes) !== e.crc) throw new ZipError(`entry ${e.name}: CRC mismatch`);
    total += bytes.length;
    out.set(e.name, bytes);
  }
  return out;
}
