// Which client a checkout is: bee-js by its package.json name, bee-go by its go.mod module path,
// bee-rs by its Cargo.toml package name.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Runner } from '../spec/schema.js';

export const CLIENT_IDS: Readonly<Record<Runner, string>> = {
  js: 'package.json name @ethersphere/bee-js',
  go: 'go.mod module github.com/ethswarm-tools/bee-go',
  rs: 'Cargo.toml package name bee-rs',
};

function read(file: string): string | undefined {
  try {
    return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}

function isBeeJs(dir: string): boolean {
  const text = read(join(dir, 'package.json'));
  if (!text) return false;
  try {
    return (JSON.parse(text) as { name?: unknown }).name === '@ethersphere/bee-js';
  } catch {
    return false;
  }
}

function isBeeGo(dir: string): boolean {
  const text = read(join(dir, 'go.mod'));
  // The module line, allowing a major-version suffix (/v2) and a trailing comment.
  return text !== undefined && /^\s*module\s+"?github\.com\/ethswarm-tools\/bee-go(\/v\d+)?"?\s*(\/\/.*)?$/m.test(text);
}

/** The `name` key of Cargo.toml's [package] table (enough TOML for this one question). */
export function cargoPackageName(toml: string): string | undefined {
  let inPackage = false;
  for (const raw of toml.split(/\r?\n/)) {
    const line = raw.replace(/#.*$/, '').trim();
    if (line.startsWith('[')) {
      inPackage = line === '[package]';
      continue;
    }
    if (!inPackage) continue;
    const m = /^name\s*=\s*(?:"([^"]*)"|'([^']*)')$/.exec(line);
    if (m) return m[1] ?? m[2];
  }
  return undefined;
}

function isBeeRs(dir: string): boolean {
  const text = read(join(dir, 'Cargo.toml'));
  return text !== undefined && cargoPackageName(text) === 'bee-rs';
}

/** Every client the folder looks like (normally one). */
export function detectClients(dir: string): Runner[] {
  const found: Runner[] = [];
  if (isBeeJs(dir)) found.push('js');
  if (isBeeGo(dir)) found.push('go');
  if (isBeeRs(dir)) found.push('rs');
  return found;
}
