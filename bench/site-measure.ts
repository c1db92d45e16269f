// One cold-cache page load of the trend site in headless Chromium, measured: bytes per file (CDP
// Network, cache disabled), the first-chart and view-ready marks the site sets. Shared by the site
// benchmarks.
import type { Page } from 'playwright-core';
import type { Browser } from '../test/pages/harness.js';

export interface Load {
  page: Page;
  /** Bytes transferred per path so far (grows while the page loads more). */
  sizes: Map<string, number>;
}

/** Opens url in a new page with the cache disabled, counting bytes per path. */
export async function openCold(browser: Browser, url: string): Promise<Load> {
  const page = await browser.context.newPage();
  const cdp = await browser.context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const urls = new Map<string, string>();
  const sizes = new Map<string, number>();
  cdp.on('Network.requestWillBeSent', (e) => urls.set(e.requestId, new URL(e.request.url).pathname));
  cdp.on('Network.loadingFinished', (e) => {
    const u = urls.get(e.requestId) ?? e.requestId;
    sizes.set(u, (sizes.get(u) ?? 0) + e.encodedDataLength);
  });
  await page.goto(url);
  return { page, sizes };
}

/** Waits for the given view to be ready; returns the site's first-chart and view-ready marks (ms since navigation). */
export async function viewReady(page: Page, view: 'overview' | 'case'): Promise<{ chart: number; ready: number }> {
  await page.waitForFunction((v) => document.body.dataset.state === 'ready' && document.body.dataset.view === v, view, { timeout: 120_000 });
  return page.evaluate(() => ({
    chart: performance.getEntriesByName('bee-bench:first-chart')[0]?.startTime ?? NaN,
    ready: performance.getEntriesByName('bee-bench:view-ready').at(-1)?.startTime ?? NaN,
  }));
}

export const total = (sizes: ReadonlyMap<string, number>): number => [...sizes.values()].reduce((a, b) => a + b, 0);
export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
export const mib = (b: number): string => `${(b / 1024 / 1024).toFixed(2)} MiB`;
