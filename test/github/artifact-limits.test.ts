// An artifact is read by the publish job under limits that hold while bytes arrive: a zip bomb
// whose deflate stream expands to 2 GiB is cut off at the entry limit (counted as it inflates, its
// headers' claims ignored), an artifact streamed without a length is cut off at the download limit
// (the server is told to stop long before 2 GiB), and entries that are links or climb out of the
// folder are refused. The downloads go through the OpenAPI-checked local server and its blob store.
import { crc32, constants, deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACT_LIMITS, ArtifactTooLargeError, downloadArtifactZip, readArtifactEntries } from '../../src/github/artifact-download.js';
import { readZipEntries, ZipError } from '../../src/github/zip.js';
import { MAX_RUN_PROFILES_BYTES } from '../../src/history/profiles.js';
import { GitHubApiServer } from './api-server.js';

const GiB = 1024 ** 3;
const LIMITS = { maxZipBytes: 8 << 20, maxEntryBytes: 4 << 20, maxTotalBytes: 8 << 20, maxEntries: 100 };

interface ZipEntry {
  name: string;
  data: Buffer;
  method: 0 | 8;
  size: number;
  crc: number;
  mode?: number;
}

/** A zip built byte by byte, so its headers can say whatever a hostile writer wants. */
function makeZip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(e.method, 8);
    local.writeUInt32LE(e.crc, 14);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(e.size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, e.data);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(e.method, 10);
    central.writeUInt32LE(e.crc, 16);
    central.writeUInt32LE(e.data.length, 20);
    central.writeUInt32LE(e.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((e.mode ?? 0o100644) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + e.data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/**
 * A raw deflate stream of 2 GiB of zeros in about 2 MB: one MiB of zeros deflated with a sync flush
 * (so it ends on a byte boundary, not final) repeated 2048 times, then an empty final block.
 */
function bombStream(): Buffer {
  const mib = deflateRawSync(Buffer.alloc(1 << 20), { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  return Buffer.concat([...Array.from({ length: 2048 }, () => mib), deflateRawSync(Buffer.alloc(0))]);
}

const plain = (name: string, text: string, mode?: number): ZipEntry => {
  const data = Buffer.from(text);
  return { name, data: deflateRawSync(data), method: 8, size: data.length, crc: crc32(data), ...(mode ? { mode } : {}) };
};

let server: GitHubApiServer;
let api: string;
let bomb: Buffer;
beforeAll(async () => {
  server = new GitHubApiServer({ owner: 'ethersphere', repo: 'bee-js', tokens: { write: ['ghs_write'] } });
  api = await server.start();
  bomb = bombStream();
});
afterAll(() => server?.close());

describe('zip bombs', () => {
  it('a deflate stream that expands to 2 GiB is cut off at the entry limit, whatever its header claims', async () => {
    expect(bomb.length).toBeLessThan(4 << 20);
    // The header lies: a small comment.json.
    const zip = makeZip([{ name: 'comment.json', data: bomb, method: 8, size: 1000, crc: 0 }]);
    const started = performance.now();
    const err = await readZipEntries(zip, () => true, LIMITS).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ZipError);
    const stopped = Number(/stopped after (\d+)/.exec((err as Error).message)?.[1]);
    // Counted while inflating: stopped just past the 4 MiB limit, not at 2 GiB.
    expect(stopped).toBeGreaterThan(LIMITS.maxEntryBytes);
    expect(stopped).toBeLessThan(LIMITS.maxEntryBytes + (1 << 20));
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('an honest header claiming 2 GiB is refused before inflating anything', async () => {
    const zip = makeZip([{ name: 'comment.json', data: bomb, method: 8, size: 2 * GiB, crc: 0 }]);
    await expect(readZipEntries(zip, () => true, LIMITS)).rejects.toThrow(/claims 2147483648 bytes, more than the 4194304 accepted/);
  });

  it('the 2 GiB bomb as an artifact: downloaded within the zip limit, refused within the entry limit', async () => {
    const a = server.addArtifact(501, 'bee-bench-js', makeZip([{ name: 'comment.json', data: bomb, method: 8, size: 1000, crc: 0 }]), 'c'.repeat(40));
    await expect(
      readArtifactEntries({ owner: 'ethersphere', repo: 'bee-js', artifactId: a.id, token: 'ghs_write', apiUrl: api }, (n) => n === 'comment.json', LIMITS),
    ).rejects.toThrow(/inflates past 4194304 bytes/);
    expect(server.violations).toEqual([]);
  });

  it('many entries together stop at the total limit', async () => {
    const mib3 = Buffer.alloc(3 << 20, 0x61);
    const big = (name: string): ZipEntry => ({ name, data: deflateRawSync(mib3), method: 8, size: mib3.length, crc: crc32(mib3) });
    await expect(readZipEntries(makeZip([big('a.json'), big('b.json'), big('c.json')]), () => true, LIMITS)).rejects.toThrow(/entry c\.json: inflates past/);
  });
});

describe('download limit', () => {
  it('an artifact streamed without a length is cut off at the zip limit, long before 2 GiB', async () => {
    const chunk = Buffer.alloc(1 << 20, 0x50);
    const a = server.addArtifact(502, 'bee-bench-js', chunk, 'c'.repeat(40));
    a.streamBytes = 2 * GiB;
    const err = await downloadArtifactZip({ owner: 'ethersphere', repo: 'bee-js', artifactId: a.id, token: 'ghs_write', apiUrl: api }, LIMITS.maxZipBytes).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ArtifactTooLargeError);
    expect((err as Error).message).toMatch(/download stopped/);
    await new Promise((r) => setTimeout(r, 200));
    expect(a.sent).toBeLessThan(64 << 20);
  });

  it('an artifact announcing a length past the limit is not downloaded at all', async () => {
    const a = server.addArtifact(503, 'bee-bench-js', Buffer.alloc(LIMITS.maxZipBytes + 1), 'c'.repeat(40));
    await expect(
      downloadArtifactZip({ owner: 'ethersphere', repo: 'bee-js', artifactId: a.id, token: 'ghs_write', apiUrl: api }, LIMITS.maxZipBytes),
    ).rejects.toThrow(/announced, more than the/);
  });
});

describe('entries', () => {
  it('reads only the wanted plain files and refuses links and names that climb out', async () => {
    const ok = makeZip([plain('comment.json', '{"a":1}'), plain('results/x.json', 'x'), plain('big/other.bin', 'never read')]);
    const got = await readZipEntries(ok, (n) => n === 'comment.json' || n.startsWith('results/'), LIMITS);
    expect([...got.keys()]).toEqual(['comment.json', 'results/x.json']);
    expect(got.get('comment.json')!.toString()).toBe('{"a":1}');
    await expect(readZipEntries(makeZip([plain('comment.json', '/etc/passwd', 0o120777)]), () => true, LIMITS)).rejects.toThrow(
      /not a regular file .*symlinks are refused/,
    );
    for (const name of ['../comment.json', '/abs/comment.json', 'a/../../b', 'a\\..\\b']) {
      await expect(readZipEntries(makeZip([plain(name, '{}')]), () => true, LIMITS)).rejects.toThrow(/not a plain relative name/);
    }
    const crc = plain('comment.json', '{"a":1}');
    await expect(readZipEntries(makeZip([{ ...crc, crc: crc.crc ^ 1 }]), () => true, LIMITS)).rejects.toThrow(/CRC mismatch/);
  });
});

describe('the limits as documented', () => {
  it('docs/security.md states the limits the code enforces', () => {
    const doc = readFileSync(join(process.cwd(), 'docs', 'security.md'), 'utf8');
    const mib = (n: number) => `${n / (1 << 20)} MiB`;
    expect(doc).toContain(`${mib(ARTIFACT_LIMITS.maxZipBytes)} download, ${mib(ARTIFACT_LIMITS.maxEntryBytes)} per entry`);
    expect(doc).toContain(`and ${mib(ARTIFACT_LIMITS.maxTotalBytes)} in all`);
  });
});

describe('the profile side file limit as documented', () => {
  it("docs/security.md states the side file's byte limit the store enforces", () => {
    const doc = readFileSync(join(process.cwd(), 'docs', 'security.md'), 'utf8');
    expect(doc.replace(/\s+/g, ' ')).toContain(`at most ${MAX_RUN_PROFILES_BYTES >> 10} KiB (\`MAX_RUN_PROFILES_BYTES\``);
  });
});
