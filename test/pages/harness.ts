// Serves the built trend site and a history folder from one origin on 127.0.0.1 (port 0), and
// launches the system Chromium through playwright-core (no browser download) with a fresh profile.
// Shared by test/pages/*.test.ts and bench/site.bench.ts.
import { createReadStream, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

export interface SiteServer {
  url: string;
  /** Paths requested, in order. */
  requests: string[];
  close(): Promise<void>;
}

function inside(root: string, urlPath: string): string | null {
  const p = resolve(root, `.${normalize(decodeURIComponent(urlPath))}`);
  return p === root || p.startsWith(root + sep) ? p : null;
}

/** The site's files from siteDir, everything else from dataDir (the page's data folder is "./"). */
export async function serveSite(siteDir: string, dataDir: string): Promise<SiteServer> {
  const roots = [resolve(siteDir), resolve(dataDir)];
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    requests.push(path);
    const rel = path === '/' ? '/index.html' : path;
    for (const root of roots) {
      const file = inside(root, rel);
      if (!file) continue;
      try {
        const st = statSync(file);
        if (!st.isFile()) continue;
        res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'content-length': st.size, 'cache-control': 'no-cache' });
        createReadStream(file).pipe(res);
        return;
      } catch {
        /* next root */
      }
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  /** Every URL a page of this context asked for that is not on 127.0.0.1 (each was aborted). */
  external: string[];
  close(): Promise<void>;
}

function hostOf(url: string): string {
  const u = new URL(url);
  return u.protocol === 'blob:' ? new URL(u.pathname).hostname : u.hostname;
}

export async function launch(opts: { colorScheme?: 'light' | 'dark'; viewport?: { width: number; height: number } } = {}): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install it with 'npm run test:tools' (as root) or 'sudo apt-get install -y chromium'`);
  const profile = mkdtempSync(join(tmpdir(), 'bee-bench-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
    acceptDownloads: true,
    viewport: opts.viewport ?? { width: 1280, height: 900 },
    colorScheme: opts.colorScheme ?? 'light',
    reducedMotion: 'reduce',
    timezoneId: 'Pacific/Auckland',
  });
  const external: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    let host = '';
    try {
      host = hostOf(url);
    } catch {
      /* data: and the like have no host */
    }
    if (url.startsWith('data:') || url.startsWith('file:') || host === '127.0.0.1') return route.continue();
    external.push(url);
    return route.abort('blockedbyclient');
  });
  return {
    context,
    external,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Writes a history's derived files (path → text) into a fresh folder under the system temp dir. */
export function writeHistoryFolder(prefix: string, files: Map<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (const [path, text] of files) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** A new page at `hash` once the site has rendered; console errors and warnings, and page errors, go to `problems`. */
export async function openRendered(browser: Browser, url: string, hash: string, problems: string[]): Promise<Page> {
  const page = await browser.context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(url + hash);
  await page.waitForFunction(() => Number(document.body.dataset.render ?? 0) > 0 && document.body.dataset.state !== 'loading');
  return page;
}
