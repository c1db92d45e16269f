#!/usr/bin/env node
// Extracts every workflow example of the docs (each fenced ```yaml block of docs/*.md and README.md
// holding both `on:` and `jobs:` at the top level) into OUT_DIR/<page>-<n>.yml, so the linters that
// check .github/workflows (zizmor, actionlint) check what the docs tell users to copy, too.
// Usage: node scripts/doc-workflows.mjs OUT_DIR   (prints the files written, one per line)
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = process.argv[2];
if (!out) {
  console.error('usage: node scripts/doc-workflows.mjs OUT_DIR');
  process.exit(2);
}
mkdirSync(out, { recursive: true });
const pages = [
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => join(root, 'docs', f)),
  join(root, 'README.md'),
];
let written = 0;
for (const page of pages.sort()) {
  const blocks = [...readFileSync(page, 'utf8').matchAll(/^```ya?ml\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
  let n = 0;
  for (const block of blocks) {
    if (!/^on:/m.test(block) || !/^jobs:/m.test(block)) continue;
    const file = join(out, `${basename(page, '.md')}-${++n}.yml`);
    writeFileSync(file, block);
    console.log(file);
    written++;
  }
}
if (written === 0) {
  console.error('no workflow examples found in docs/*.md or README.md');
  process.exit(1);
}
