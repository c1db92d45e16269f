// The report page's chart code as one script (page.ts with Chart.js and both plugins), inlined into
// experiment-report.html. The published bundle carries it as a build-time constant
// (scripts/build.mjs defines __BEE_BENCH_EXPERIMENT_CHARTS__, since esbuild is not shipped); from the
// sources (tests, tsx) it is bundled on first use with esbuild.
import { fileURLToPath } from 'node:url';

declare const __BEE_BENCH_EXPERIMENT_CHARTS__: string | undefined;

export const PAGE_ENTRY = fileURLToPath(new URL('./page.ts', import.meta.url));

let cached: string | undefined;

export async function experimentChartsSource(): Promise<string> {
  if (typeof __BEE_BENCH_EXPERIMENT_CHARTS__ === 'string') return __BEE_BENCH_EXPERIMENT_CHARTS__;
  if (cached !== undefined) return cached;
  let esbuild: typeof import('esbuild');
  try {
    esbuild = await import('esbuild');
  } catch (e) {
    throw new Error(
      `the experiment report's chart code is not bundled into this build and esbuild is not installed (${(e as Error).message}). Fix: rebuild with \`npm run build\`, or pass charts: false`,
    );
  }
  const out = await esbuild.build({
    entryPoints: [PAGE_ENTRY],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: ['chrome109', 'firefox115', 'safari16'],
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  cached = out.outputFiles[0]!.text;
  return cached;
}
