// `bee-bench site`: the trend site served on 127.0.0.1 over a history folder, as browsers do not run
// the page's module script from file://. The pages themselves (index.html, app.js, app.css, the
// icon, experiments.html and experiments.js) come from this package's pages/dist, so the site shown
// is the one this version builds; every other path is a file of the history folder (index.json,
// series/, runs/, experiments/). GET and HEAD only, no listing, nothing outside the two folders,
// and only on the loopback interface.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, relative, resolve, sep } from 'node:path';
import { childEnv } from '../child/env.js';
import { redact } from '../history/git.js';
import { LOCAL_HISTORY, siteDir } from '../history/publish.js';
import { remoteProblem } from './remote.js';

/** What `bee-bench site` serves with no argument: the history `bee-bench run` keeps under the default --out. */
const LOCAL_DEFAULT = join('out', LOCAL_HISTORY);

const SITE_FILES = new Set(['index.html', 'app.js', 'app.css', 'favicon.svg', 'file-hint.js', 'experiments.html', 'experiments.js']);
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
};

export class SiteError extends Error {}

/** The history folder of `--history DIR`: it must hold the derived index.json. */
export function historyFolder(dir: string): string {
  const abs = resolve(dir);
  if (!existsSync(join(abs, 'index.json'))) {
    throw new SiteError(
      `${dir}: no index.json here; give the history folder (the ${existsSync(join(abs, 'bench', 'index.json')) ? 'bench/ folder inside it' : 'folder `history publish` writes, bench/ of the history branch by default'})`,
    );
  }
  return realpathSync(abs);
}

/** `--remote URL`: the history branch cloned (shallow) into a temporary folder; its `folder` inside it. */
export function cloneHistory(remote: string, branch: string, folder: string): string {
  const into = mkdtempSync(join(tmpdir(), 'bee-bench-site-'));
  try {
    execFileSync('git', ['clone', '--quiet', '--depth', '1', '--branch', branch, '--', remote, into], { env: childEnv(), stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (e) {
    const said = (e as { stderr?: Buffer }).stderr?.toString().trim().split('\n')[0];
    throw new SiteError(remoteProblem(remote, branch) ?? `cannot clone branch ${branch} of ${redact(remote)}: ${said || (e as Error).message}`);
  }
  return historyFolder(join(into, folder));
}

/** A request path to a file: a site file from pages/dist, else a file inside the history folder; null when refused. */
export function fileFor(urlPath: string, history: string, site: string): string | null {
  let path: string;
  try {
    path = decodeURIComponent(urlPath.split('?')[0]!);
  } catch {
    return null;
  }
  if (path === '/' || path === '') path = '/index.html';
  const rel = path.replace(/^\/+/, '');
  if (rel.split('/').some((seg) => seg === '' || seg === '.' || seg === '..' || seg.startsWith('.'))) return null;
  if (SITE_FILES.has(rel)) return join(site, rel);
  const file = resolve(history, rel);
  if (relative(history, file).startsWith('..') || !file.startsWith(history + sep)) return null;
  if (!existsSync(file) || !statSync(file).isFile()) return null;
  // A link inside the history that leads out of it is refused too.
  const real = realpathSync(file);
  return real.startsWith(history + sep) ? real : null;
}

export interface SiteServer {
  url: string;
  server: Server;
}

/** Serves the site over `history` on 127.0.0.1:`port` (0: any free port). */
export function serveSite(history: string, port: number): Promise<SiteServer> {
  const site = siteDir();
  if (!site) return Promise.reject(new SiteError('the trend site is not built (pages/dist/index.html is missing): run npm run build'));
  const server = createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    const file = fileFor(req.url ?? '/', history, site);
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    const body = readFileSync(file);
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache', 'content-length': body.length });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  return new Promise((resolvePromise, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(e.code === 'EADDRINUSE' ? new SiteError(`port ${port} is in use on 127.0.0.1: give another with --port N (0 picks a free one)`) : e),
    );
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address() as AddressInfo;
      resolvePromise({ url: `http://127.0.0.1:${bound}/`, server });
    });
  });
}

export interface SiteCommand {
  history?: string;
  remote?: string;
  branch: string;
  folder: string;
  port: number;
  log: (line: string) => void;
}

/** `bee-bench site`: serves until interrupted; resolves with the exit code once the server is closed. */
export async function siteCommand(o: SiteCommand): Promise<number> {
  if (o.history !== undefined && o.remote !== undefined) throw new SiteError('site takes --history DIR or --remote URL|PATH, not both');
  // No argument: the local history `bee-bench run` keeps under out/.
  const history = o.history ?? (o.remote === undefined ? LOCAL_DEFAULT : undefined);
  if (history === LOCAL_DEFAULT && !existsSync(join(resolve(history), 'index.json')))
    throw new SiteError(
      `no local history in ${LOCAL_DEFAULT} yet: run \`npm run main\` (or bee-bench run) first, each run adds a point; or give --history DIR (a history folder) or --remote URL|PATH (a repository with the history branch)`,
    );
  const folder = history !== undefined ? historyFolder(history) : cloneHistory(o.remote!, o.branch, o.folder);
  const { url, server } = await serveSite(folder, o.port);
  o.log(`serving ${history ?? `${o.remote} (branch ${o.branch}, folder ${o.folder})`} on 127.0.0.1 only; press Ctrl-C to stop`);
  process.stdout.write(`${url}\n`);
  return new Promise((done) => {
    const stop = () => {
      server.close(() => done(0));
      server.closeAllConnections();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
