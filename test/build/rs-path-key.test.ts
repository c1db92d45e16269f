// bee-rs builds of a checkout are keyed by where the checkout is, not only by its content: rustc
// writes the checkout's absolute path into the line tables the profiles read source lines from, so
// a cached build from a folder since deleted listed the changed function's lines as no client's.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildFolder } from '../../src/build/index.js';

const work = mkdtempSync(join(tmpdir(), 'bee-bench-rs-key-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('bee-rs build key', () => {
  it('differs for the same checkout content in two folders, and stays for one folder', async () => {
    const first = join(work, 'a', 'bee-rs');
    mkdirSync(join(first, 'src'), { recursive: true });
    writeFileSync(join(first, 'Cargo.toml'), '[package]\nname = "bee-rs"\nversion = "1.7.0"\n');
    writeFileSync(join(first, 'src', 'lib.rs'), 'pub fn f() {}\n');
    const second = join(work, 'b', 'bee-rs');
    cpSync(first, second, { recursive: true });
    const key = async (path: string) => (await buildFolder({ runner: 'rs', source: { kind: 'path', path }, cacheDir: work })).key;
    const [a, again, b] = [await key(first), await key(first), await key(second)];
    expect(again).toBe(a);
    expect(b).not.toBe(a);
    // A registry build has no folder: its key names none.
    const registry = await buildFolder({ runner: 'rs', source: { kind: 'registry' }, cacheDir: work });
    expect(registry.key).not.toBe(a);
  });
});
