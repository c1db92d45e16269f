// Mantaray manifest cases: offline collection hashing and lookups in a large manifest.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { operation } from '../client.mjs';
import { beeClient, concat, pad, range, raw } from './util.mjs';

const ZERO_REF = new Uint8Array(32);

/**
 * cpu.manifest.hash: bee-js hashes a collection offline from a directory (its only
 * offline collection API), so the files are written under the fixtures folder in setup and the
 * timed operation is hashDirectory with its defaults.
 */
export async function hashFiles(env, p) {
  const hashDirectory = operation(beeClient(env), 'hashDirectory');
  await mkdir(env.fixturesDir, { recursive: true });
  const dir = await mkdtemp(join(env.fixturesDir, 'manifest-'));
  const data = env.fixtures.data(p.files * p.file_bytes);
  for (const i of range(p.files)) {
    await writeFile(join(dir, `f${pad(i, 4)}.bin`), data.subarray(p.file_bytes * i, p.file_bytes * (i + 1)));
  }
  let root;
  return {
    async op() {
      root = await hashDirectory(dir);
    },
    output: () => raw(root),
    close: () => rm(dir, { recursive: true, force: true }),
  };
}

/** cpu.manifest.lookup-large: MantarayNode.find over a prebuilt manifest, hits and misses. */
export function lookupLarge(env, p) {
  const MantarayNode = env.client.export('MantarayNode');
  const targets = env.fixtures.data(32 * p.entries);
  const entryPath = (i) => `d${pad(i % 64, 2)}/f${pad(i, 5)}.bin`;
  const root = new MantarayNode();
  for (const i of range(p.entries)) root.addFork(entryPath(i), targets.slice(32 * i, 32 * (i + 1)));
  const queries = range(p.lookups).map((j) => (j % 5 === 4 ? `d${pad(j % 64, 2)}/m${pad(j % 100000, 5)}.bin` : entryPath((j * 7919) % p.entries)));
  const found = new Array(p.lookups);
  return {
    op() {
      for (let j = 0; j < queries.length; j++) found[j] = root.find(queries[j]);
    },
    output: () => concat(found.map((node) => (node ? raw(node.targetAddress) : ZERO_REF))),
  };
}
