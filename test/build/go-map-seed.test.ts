// The bee-go runner's build turns per-map hash seeds off with an overlay of the installed Go
// toolchain's map implementation (src/build/go-map-seed.ts). Checked on a small Go program built
// with and without the overlay: it reads a fresh map's seed from the map's header (Go 1.24+ maps
// start with the element count, then the seed).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { goMapSource, mapSeedOverlay } from '../../src/build/go-map-seed.js';

const PROBE = `package main

import (
	"fmt"
	"unsafe"
)

type header struct {
	used uint64
	seed uintptr
}

// Kept maps live on the heap (a map that does not escape gets its seed from compiler-generated
// code instead; bee-go's manifest maps all escape).
var kept []map[string]int

func main() {
	for i := 0; i < 3; i++ {
		m := map[string]int{"a": i}
		kept = append(kept, m)
		fmt.Println((*header)(*(*unsafe.Pointer)(unsafe.Pointer(&m))).seed)
	}
}
`;

function seedsOf(overlay: string[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'bee-bench-mapseed-'));
  writeFileSync(join(dir, 'go.mod'), 'module probe\n\ngo 1.24\n');
  writeFileSync(join(dir, 'main.go'), PROBE);
  execFileSync('go', ['build', ...overlay, '-o', 'probe', '.'], { cwd: dir });
  return execFileSync(join(dir, 'probe'), { encoding: 'utf8' }).trim().split('\n');
}

describe('mapSeedOverlay', { timeout: 300_000 }, () => {
  it('replaces every per-map seed draw of the installed toolchain with 0', () => {
    const built = mapSeedOverlay(mkdtempSync(join(tmpdir(), 'bee-bench-overlay-')));
    if (built.overlay === null) throw new Error(built.reason);
    const replaced = Object.values(JSON.parse(readFileSync(built.overlay, 'utf8')).Replace as Record<string, string>)[0]!;
    expect(readFileSync(goMapSource(), 'utf8')).toMatch(/m\.seed = uintptr\(rand\(\)\)/);
    expect(readFileSync(replaced, 'utf8')).not.toMatch(/m\.seed = uintptr\(rand\(\)\)/);
    expect(seedsOf(['-overlay', built.overlay])).toEqual(['0', '0', '0']);
    // Without it, every map draws a seed of its own.
    expect(new Set(seedsOf([])).size).toBe(3);
  });

  it('says why when the toolchain keeps maps elsewhere', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bee-bench-overlay-'));
    expect(mapSeedOverlay(dir, join(dir, 'missing.go'))).toMatchObject({ overlay: null, reason: expect.stringMatching(/does not exist/) });
    writeFileSync(join(dir, 'map.go'), 'package maps\n\nfunc NewMap() {}\n');
    expect(mapSeedOverlay(dir, join(dir, 'map.go'))).toMatchObject({ overlay: null, reason: expect.stringMatching(/draws no per-map seed/) });
  });
});
