// vitest global set-up: one temporary folder per test run, outside the repository, into which
// test/bee/real-node.ts unpacks each Bee release the first time a test asks for it (so a run that
// needs no node unpacks nothing); removed when the run ends.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'bee-bench-real-bee-'));
  project.provide('realBeeDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
