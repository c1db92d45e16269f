// The repository explains itself: docs/design.md is the one design reference, every pointer into it
// names a section that exists, README's layout table covers every folder of src/, and no text
// speaks of the machine the project happened to be developed on.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import GithubSlugger from 'github-slugger';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const DESIGN = 'docs/design.md';

/** Tracked and new (not ignored) text files, bundles and lock files aside. */
function repoTexts(): Array<{ file: string; text: string }> {
  return execFileSync('git', ['-C', ROOT, 'ls-files', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' })
    .split('\n')
    .filter((f) => f && !/^(dist|pages\/dist)\/|(^|\/)(package-lock\.json|Cargo\.lock|go\.sum)$/.test(f))
    .flatMap((file) => {
      try {
        const buf = readFileSync(join(ROOT, file));
        return buf.includes(0) ? [] : [{ file, text: buf.toString('utf8') }];
      } catch {
        return []; // listed but deleted in the work tree
      }
    });
}

describe('docs/design.md as the design reference', () => {
  const texts = repoTexts();
  const design = readFileSync(join(ROOT, DESIGN), 'utf8');
  const headings = design
    .split('\n')
    .filter((l) => /^#{2,4} /.test(l))
    .map((l) => l.replace(/^#+ /, ''));
  const slugger = new GithubSlugger();
  const anchors = new Set(headings.map((h) => slugger.slug(h)));

  it('is the only design document anything refers to', () => {
    const old = ['DESIGN', 'md'].join('.'); // the brief the project started from, not in the repository
    const stale = texts.filter((t) => t.file !== DESIGN && t.text.includes(old)).map((t) => t.file);
    expect(stale).toEqual([]);
  });

  it('has every section a comment or link points at', () => {
    const missing: string[] = [];
    for (const { file, text } of texts) {
      for (const m of text.matchAll(/design\.md#([a-z0-9-]+)/g)) if (!anchors.has(m[1]!)) missing.push(`${file}: #${m[1]}`);
      for (const m of text.matchAll(/docs\/design\.md[,;]? "([^"]+)"/g)) if (!headings.includes(m[1]!)) missing.push(`${file}: "${m[1]}"`);
    }
    expect(missing).toEqual([]);
    // The pointers exist at all (the check above is not vacuous).
    expect(texts.filter((t) => /docs\/design\.md/.test(t.text)).length).toBeGreaterThan(15);
  });

  it("README's layout table lists every folder of src/", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const folders = readdirSync(join(ROOT, 'src')).filter((d) => statSync(join(ROOT, 'src', d)).isDirectory());
    expect(folders.filter((d) => !new RegExp(`^\\| \`src/${d}\``, 'm').test(readme))).toEqual([]);
  });

  it('no text speaks of the machine it was developed on', () => {
    const local = /this workplace|workplace's|reachable here|on this (machine|box|VM)\b|the VM this was built on/i;
    expect(texts.filter((t) => local.test(t.text) && t.file !== 'test/docs.test.ts').map((t) => t.file)).toEqual([]);
  });
});
