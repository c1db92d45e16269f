// Builds the trend site into pages/dist/: index.html, favicon.svg (browsers ask for an icon on every
// load), app.js (TypeScript + Chart.js + zoom plugin,
// one minified ES module), experiments.html with experiments.js (the release experiments page, Chart.js
// with the boxplot and error-bar plugins) and app.css. No CDN: the site makes no request outside its own folder.
// Run directly (node pages/build.mjs) or from scripts/build.mjs via buildPages().
import { build } from 'esbuild';
import { copyFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

export async function buildPages({ outdir = join(here, 'dist') } = {}) {
  await mkdir(outdir, { recursive: true });
  await build({
    entryPoints: { app: join(here, 'src/main.ts'), experiments: join(here, 'src/experiments.ts') },
    outdir,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome109', 'firefox115', 'safari16'],
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  await build({
    entryPoints: { app: join(here, 'src/app.css') },
    outdir,
    bundle: true,
    minify: true,
    logLevel: 'warning',
  });
  for (const file of ['index.html', 'experiments.html', 'favicon.svg', 'file-hint.js']) await copyFile(join(here, 'src', file), join(outdir, file));
  return outdir;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const out = await buildPages();
  console.error(`built ${join(out, 'index.html')}, app.js, app.css`);
}
