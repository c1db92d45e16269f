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

  it("lists every base name shared by files of src/, with each file's folder", () => {
    const byName = new Map<string, string[]>();
    const walk = (dir: string) => {
      for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
        if (e.isDirectory()) walk(`${dir}/${e.name}`);
        else if (e.name.endsWith('.ts') && e.name !== 'index.ts') byName.set(e.name, [...(byName.get(e.name) ?? []), dir]);
      }
    };
    walk('src');
    const shared = [...byName].filter(([, dirs]) => dirs.length > 1);
    const rows = new Map(design.split('\n').flatMap((l) => (/^\| `[\w-]+\.ts` \|/.exec(l) ? [[l.split('`')[1]!, l] as const] : [])));
    const missing = shared.flatMap(([name, dirs]) =>
      !rows.has(name) ? [`${name} (${dirs.join(', ')})`] : dirs.filter((d) => !rows.get(name)!.includes(`\`${d}\``)).map((d) => `${name}: ${d}`),
    );
    expect(missing).toEqual([]);
    // Rows for names no longer shared go too.
    expect([...rows.keys()].filter((n) => !shared.some(([s]) => s === n))).toEqual([]);
    expect(shared.length).toBeGreaterThan(10); // the check is not vacuous
  });

  it('README is a front door: at most 250 lines, the two commands within its first 40', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n');
    expect(readme.length).toBeLessThanOrEqual(250);
    const top = readme.slice(0, 40).join('\n');
    expect(top).toContain('npm run main');
    expect(top).toContain('npm test');
  });

  it('every relative link of README.md and docs/ names a file that exists, and a heading that exists in it', () => {
    const pages = ['README.md', ...readdirSync(join(ROOT, 'docs')).map((f) => `docs/${f}`)].filter((f) => f.endsWith('.md'));
    const slugsOf = (file: string) => {
      const s = new GithubSlugger();
      return new Set(
        readFileSync(join(ROOT, file), 'utf8')
          .split('\n')
          .filter((l) => /^#{1,4} /.test(l))
          .map((l) => s.slug(l.replace(/^#+ /, ''))),
      );
    };
    const broken: string[] = [];
    let checked = 0;
    for (const page of pages) {
      const text = readFileSync(join(ROOT, page), 'utf8');
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const [path, anchor] = m[1]!.split('#');
        if (/^[a-z]+:/.test(m[1]!)) continue;
        checked++;
        const target = path ? join(page.includes('/') ? 'docs' : '', path) : page;
        let exists = true;
        try {
          statSync(join(ROOT, target));
        } catch {
          exists = false;
        }
        if (!exists) broken.push(`${page}: ${m[1]}`);
        else if (anchor && target.endsWith('.md') && !slugsOf(target).has(anchor)) broken.push(`${page}: ${m[1]}`);
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(20); // the check above is not vacuous
  });

  it('no text speaks of the machine it was developed on', () => {
    const local = /this workplace|workplace's|reachable here|on this (machine|box|VM)\b|the VM this was built on/i;
    expect(texts.filter((t) => local.test(t.text) && t.file !== 'test/docs.test.ts').map((t) => t.file)).toEqual([]);
  });
});
