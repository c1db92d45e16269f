// The site tests' set-up, done once per test file: the site built, served with a history folder,
// and Chromium launched; all of it closed and removed after the file. Apart from harness.ts, which
// the benches import without vitest.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { launch, serveSite, type Browser, type SiteServer } from './harness.js';

const ROOT = resolve(import.meta.dirname, '../..');

/** The served site, filled in when the file's beforeAll has run. */
export interface ServedSite {
  /** The history folder served; removed after the file. */
  dataDir: string;
  srv: SiteServer;
  browser: Browser;
}

/**
 * Registers the file's hooks: before its tests, pages/ is built (pages/build.mjs), the folder
 * historyDir() writes is served with pages/dist, and Chromium is launched with launchOptions.
 */
export function servedSite(historyDir: () => string, launchOptions?: Parameters<typeof launch>[0]): ServedSite {
  const site: Partial<ServedSite> = {};
  beforeAll(async () => {
    execFileSync(process.execPath, [join(ROOT, 'pages/build.mjs')], { stdio: 'pipe' });
    site.dataDir = historyDir();
    site.srv = await serveSite(join(ROOT, 'pages/dist'), site.dataDir);
    site.browser = await launch(launchOptions);
  });
  afterAll(async () => {
    await site.browser?.close();
    await site.srv?.close();
    if (site.dataDir) rmSync(site.dataDir, { recursive: true, force: true });
  });
  return site as ServedSite;
}
