// Loading bee-js and finding what it offers.
//
// bee-js is always imported as `@ethersphere/bee-js` through normal Node resolution, so
// runners/js/node_modules/@ethersphere/bee-js may be the registry package or a symlink to a
// checkout (client.source "path"). Two API generations are supported by feature detection:
// v12 has flat Bee methods (bee.uploadData), v13 groups them in namespaces (bee.data.upload).
// A case whose API is absent is skipped with a reason naming it, never crashes.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Skip } from './errors.mjs';

export const CLIENT_NAME = '@ethersphere/bee-js';

/**
 * Each operation a case needs, with its call paths on a Bee instance, newest generation first.
 * The first path that resolves to a function is used.
 */
export const OPERATIONS = {
  getHealth: ['status.getHealth', 'getHealth'],
  getPostageBatches: ['stamp.getAll', 'getPostageBatches', 'getAllPostageBatch'],
  uploadData: ['data.upload', 'uploadData'],
  probeData: ['data.probe', 'probeData'],
  downloadReadableData: ['data.downloadReadable', 'downloadReadableData'],
  uploadFile: ['file.upload', 'uploadFile'],
  downloadReadableFile: ['file.downloadReadable', 'downloadReadableFile'],
  uploadChunk: ['chunk.upload', 'uploadChunk'],
  hashDirectory: ['collection.hashDirectory', 'hashDirectory'],
  streamDirectory: ['collection.streamFromDirectory', 'streamDirectory'],
  createTag: ['tag.create', 'createTag'],
  retrieveTag: ['tag.get', 'retrieveTag'],
  pin: ['pin.add', 'pin'],
  unpin: ['pin.remove', 'unpin'],
  getAllPins: ['pin.getAll', 'getAllPins'],
  makeFeedWriter: ['feed.makeWriter', 'makeFeedWriter'],
  makeFeedReader: ['feed.makeReader', 'makeFeedReader'],
  makeSOCWriter: ['soc.makeWriter', 'makeSOCWriter'],
};

/** Resolves an operation on a Bee instance to a bound function, or throws Skip naming it. */
export function operation(bee, name) {
  const paths = OPERATIONS[name];
  if (!paths) throw new Error(`unknown bee-js operation ${name}`);
  for (const path of paths) {
    const parts = path.split('.');
    const method = parts.pop();
    // v12 has bee.pin() as a method where v13 has the bee.pin namespace: insist on the shape.
    const owner = parts.reduce((o, p) => (o != null && typeof o[p] === 'object' ? o[p] : undefined), bee);
    if (owner != null && typeof owner[method] === 'function') return owner[method].bind(owner);
  }
  throw new Skip(`bee-js has no ${name} API (tried ${paths.map((p) => `bee.${p}`).join(', ')})`);
}

/** Where bee-js resolves from, and what it is: name, version, source, commit. */
export function locateClient() {
  const entry = resolveEntry();
  const root = packageRoot(entry);
  const real = realpathSync(root);
  const pkg = JSON.parse(readFileSync(join(real, 'package.json'), 'utf8'));
  const source = real.split(sep).includes('node_modules') ? 'registry' : 'path';
  const info = { name: pkg.name, version: pkg.version, source };
  if (source === 'path') {
    const commit = gitHead(real);
    if (commit) info.commit = commit;
  }
  return { info, root: real };
}

function resolveEntry() {
  try {
    return 'resolve' in import.meta ? fileURLToPath(import.meta.resolve(CLIENT_NAME)) : createRequire(import.meta.url).resolve(CLIENT_NAME);
  } catch (e) {
    throw new Error(
      `cannot resolve ${CLIENT_NAME} from ${dirname(fileURLToPath(import.meta.url))}: run npm install in runners/js (${/** @type {Error} */ (e).message})`,
    );
  }
}

function packageRoot(entry) {
  for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file) && JSON.parse(readFileSync(file, 'utf8')).name === CLIENT_NAME) return dir;
  }
  throw new Error(`no package.json named ${CLIENT_NAME} above ${entry}`);
}

function gitHead(dir) {
  try {
    const out = execFileSync('git', ['-C', dir, 'rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return /^[0-9a-f]{40,64}$/.test(out.trim()) ? out.trim() : undefined;
  } catch {
    return undefined;
  }
}

/** bee-js loaded: the module, its exports by name, and its internals by dist path. */
export async function loadClient() {
  const { info, root } = locateClient();
  const lib = await import(CLIENT_NAME);
  return {
    info,
    root,
    lib,
    /** A named export of the package, or Skip naming it. */
    export(name) {
      if (lib[name] === undefined) throw new Skip(`bee-js ${info.version} exports no ${name}`);
      return lib[name];
    },
    /**
     * An export of a dist file that the package `exports` map hides (chunk address, ...),
     * imported by absolute file URL from the resolved package root.
     */
    async internal(relPath, name) {
      const file = join(root, relPath);
      if (!existsSync(file)) throw new Skip(`bee-js internal ${relPath} not found in ${root} (needed for ${name})`);
      const mod = await import(pathToFileURL(file).href);
      if (typeof mod[name] !== 'function') throw new Skip(`bee-js internal ${relPath} has no ${name}`);
      return mod[name];
    },
  };
}
