// Where the tests' real Bee nodes come from: the release archives in ../shared/bee beside the clone
// (as on CI) and the sha256 of each uncompressed binary in its README's table. Whether they are
// there decides whether the real-node tests run; the summary reporter reads the same answer to say
// in one line what was skipped and why. No vitest import: the reporter runs outside the workers.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';

/** The releases the tests use; both still have `bee dev` (removed in 2.8.1). */
export const BEE_RELEASES = ['2.8.0', '2.7.0'] as const;
export type BeeRelease = (typeof BEE_RELEASES)[number];

/** ../shared/bee beside the clone (the tests run from the repository root). */
export const SHARED_BEE = resolve(process.cwd(), '..', 'shared', 'bee');

const FIX = 'put the Bee release archives (bee-v2.8.0.xz, bee-v2.7.0.xz and their README.md) in ../shared/bee beside the clone, as CI has them';

const Sha = z.string().regex(/^[0-9a-f]{64}$/);

/** sha256 of each release's uncompressed binary, from the README's table (`| \`bee-vX.xz\` | vX | … | \`sha\` |`). */
export function readmeDigests(readme: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of readme.split('\n')) {
    const m = /^\|\s*`bee-v(\d+\.\d+\.\d+)\.xz`\s*\|.*\|\s*`([0-9a-f]{64})`\s*\|\s*$/.exec(line.trim());
    if (m) out.set(m[1]!, Sha.parse(m[2]));
  }
  return out;
}

/** Whether the tests can have real nodes, or the one line that says what they skip and why. */
export function realBeeAvailability(dir = SHARED_BEE): { ok: true } | { ok: false; reason: string; fix: string } {
  const readme = join(dir, 'README.md');
  if (!existsSync(readme)) return { ok: false, reason: `${readme} is missing`, fix: FIX };
  const digests = readmeDigests(readFileSync(readme, 'utf8'));
  for (const r of BEE_RELEASES) {
    const archive = join(dir, `bee-v${r}.xz`);
    if (!existsSync(archive)) return { ok: false, reason: `${archive} is missing`, fix: FIX };
    if (!digests.has(r)) return { ok: false, reason: `${readme} has no sha256 for bee-v${r}.xz in its table`, fix: FIX };
  }
  if (spawnSync('xz', ['--version'], { stdio: 'ignore' }).status !== 0)
    return { ok: false, reason: 'the xz command is missing (the Bee archives are xz-compressed)', fix: "install it: 'sudo apt-get install -y xz-utils'" };
  return { ok: true };
}
