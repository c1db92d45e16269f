// Bundles the TypeScript entry points with esbuild. dist/ is committed because GitHub runs actions
// from it; CI rebuilds and fails when the committed bundle differs from a fresh one.
import { build } from 'esbuild';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

// report.html inlines Chart.js (no CDN); node_modules is absent beside dist/ at run time, so the
// library text is embedded at bundle time (read back in src/report/write.ts).
const chartJs = readFileSync(join(dirname(createRequire(import.meta.url).resolve('chart.js')), 'chart.umd.min.js'), 'utf8');

// experiment-report.html inlines its chart code (Chart.js with the boxplot and error-bar plugins):
// bundled here for the browser and embedded as text (read back in src/experiment/report/bundle.ts).
const experimentCharts = (
  await build({
    entryPoints: ['src/experiment/report/page.ts'],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: ['chrome109', 'firefox115', 'safari16'],
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  })
).outputFiles[0].text;

const entries = [
  // The CLI is package.json's bin: executable, so `bee-bench` and `./dist/cli.js` run it directly.
  { in: 'src/cli.ts', out: 'dist/cli.js', banner: '#!/usr/bin/env node', mode: 0o755 },
  { in: 'src/action.ts', out: 'dist/index.js' },
  { in: 'src/action-post.ts', out: 'dist/post.js' },
].filter((e) => existsSync(e.in));

for (const e of entries) {
  await build({
    entryPoints: [e.in],
    outfile: e.out,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    // Bundled CommonJS dependencies (octokit, @actions/*) call require(); give ESM output one.
    banner: {
      js: `${e.banner ? e.banner + '\n' : ''}import { createRequire as __bbCreateRequire } from 'node:module'; const require = __bbCreateRequire(import.meta.url);`,
    },
    define: { __BEE_BENCH_CHARTJS__: JSON.stringify(chartJs), __BEE_BENCH_EXPERIMENT_CHARTS__: JSON.stringify(experimentCharts) },
    // Only the sources bundle the experiment charts on demand (bundle.ts); the build carries them.
    external: ['esbuild'],
    legalComments: 'none',
    logLevel: 'warning',
  });
  if (e.mode) chmodSync(e.out, e.mode);
  console.error(`built ${e.out}`);
}

// The trend site (pages/dist/), published into gh-pages by src/history.
await (await import('../pages/build.mjs')).buildPages();
console.error('built pages/dist');
