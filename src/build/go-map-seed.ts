// The bee-go runner is built with per-map hash seeds off. Go (1.24+) gives every map a seed drawn
// from the creating thread's random stream, and how far along that stream is depends on how many
// threads the thread has started, which varies with scheduling; a map lookup's cost depends on
// which keys collide under the seed, so bee-go's map-backed manifest lookups counted 0.1-0.4%
// apart between processes of the same build. With the seed draws replaced by 0 (an `-overlay` of
// the installed toolchain's map implementation, generated at build time), every map hashes with
// the process's hash key alone, which the runner fixes while counting (runners/go/harness/count/seed).
// Natively nothing else changes: keys still hash with a key random per process.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { childEnv } from '../child/env.js';

const SEED_DRAW = /m\.seed = uintptr\(rand\(\)\)/g;

/** The toolchain's map implementation, where Go 1.24+ keeps it. */
export function goMapSource(): string {
  const goroot = execFileSync('go', ['env', 'GOROOT'], { encoding: 'utf8', env: childEnv() }).trim();
  return join(goroot, 'src', 'internal', 'runtime', 'maps', 'map.go');
}

/**
 * Writes an overlay under `dir` that replaces `source`'s per-map seed draws with 0, for
 * `go build -overlay <overlay>`; or says why it cannot (another Go's map layout).
 */
export function mapSeedOverlay(dir: string, source = goMapSource()): { overlay: string } | { overlay: null; reason: string } {
  if (!existsSync(source)) return { overlay: null, reason: `${source} does not exist (Go before 1.24 keeps maps elsewhere)` };
  const text = readFileSync(source, 'utf8');
  const patched = text.replace(SEED_DRAW, 'm.seed = 0');
  if (patched === text) return { overlay: null, reason: `${source} draws no per-map seed as "m.seed = uintptr(rand())"` };
  mkdirSync(dir, { recursive: true });
  const replacement = join(dir, 'map.go');
  writeFileSync(replacement, patched);
  const overlay = join(dir, 'overlay.json');
  writeFileSync(overlay, JSON.stringify({ Replace: { [source]: replacement } }));
  return { overlay };
}
