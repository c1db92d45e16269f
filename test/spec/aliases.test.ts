// Former case ids: the spec says them (validated), selection accepts them with a note naming the
// new id, and the bundled spec's renames map old to new.
import { describe, expect, it } from 'vitest';
import { caseAliases, currentId, renamedCaseNotes } from '../../src/spec/aliases.js';
import { loadSpec } from '../../src/spec/load.js';
import { selectCases } from '../../src/spec/select.js';
import { editedSpecFile, spec } from '../fixtures/spec.js';

const RENAMES: Record<string, string> = {
  'cpu.ecdsa.sign-1000': 'cpu.ecdsa.sign',
  'cpu.ecdsa.verify-1000': 'cpu.ecdsa.verify',
  'cpu.manifest.hash-50files': 'cpu.manifest.hash',
};

describe('former case ids', () => {
  it('the bundled spec maps each renamed id to its case, and no current id carries a count', () => {
    expect(Object.fromEntries(caseAliases(spec))).toEqual(RENAMES);
    for (const [old, now] of Object.entries(RENAMES)) expect(currentId(caseAliases(spec), old)).toBe(now);
    expect(currentId(caseAliases(spec), 'cpu.keccak.bulk')).toBe('cpu.keccak.bulk');
    expect(spec.cases.map((c) => c.id).filter((id) => /-\d+|\d+files/.test(id))).toEqual([]);
  });

  it('a --case with a former id selects the case and says the new id in one line', () => {
    expect(selectCases(spec, ['cpu.ecdsa.sign-1000']).map((c) => c.id)).toEqual(['cpu.ecdsa.sign']);
    expect(renamedCaseNotes(spec, ['cpu.ecdsa.sign-1000'])).toEqual([
      'case cpu.ecdsa.sign-1000 is now cpu.ecdsa.sign (renamed; its history continues under the new id): use the new id',
    ]);
    // A glob over former ids only selects their cases, and is named too.
    expect(selectCases(spec, ['cpu.*-1000']).map((c) => c.id)).toEqual(['cpu.ecdsa.sign', 'cpu.ecdsa.verify']);
    expect(renamedCaseNotes(spec, ['cpu.*-1000'])).toEqual([
      'case glob "cpu.*-1000" matches former ids only (cpu.ecdsa.sign-1000, cpu.ecdsa.verify-1000): it selects cpu.ecdsa.sign, cpu.ecdsa.verify; use the current ids',
    ]);
    // A glob that matches current ids says nothing, even where it also matches a former one.
    expect(renamedCaseNotes(spec, ['cpu.ecdsa.*', 'cpu.keccak.bulk'])).toEqual([]);
    expect(selectCases(spec, ['cpu.manifest.hash-50files', 'cpu.keccak.bulk']).map((c) => c.id)).toEqual(['cpu.keccak.bulk', 'cpu.manifest.hash']);
  });

  it('rejects a former id that is a current id, one listed by two cases, or one that is no id', () => {
    const current = editedSpecFile((raw) => {
      raw.cases.find((c: { id: string }) => c.id === 'cpu.ecdsa.sign').formerly.push('cpu.identity.create');
    }, 'current.json');
    expect(() => loadSpec(current)).toThrow(
      /current\.json: cases\[\d+\]\.formerly\[1\]: "cpu\.identity\.create" is a current case id; remove it from formerly of cpu\.ecdsa\.sign/,
    );
    const twice = editedSpecFile((raw) => {
      raw.cases.find((c: { id: string }) => c.id === 'cpu.ecdsa.verify').formerly.push('cpu.ecdsa.sign-1000');
    }, 'twice.json');
    expect(() => loadSpec(twice)).toThrow(/"cpu\.ecdsa\.sign-1000" is already a former id of cpu\.ecdsa\.sign; a former id names one case/);
    const bad = editedSpecFile((raw) => {
      raw.cases.find((c: { id: string }) => c.id === 'cpu.ecdsa.sign').formerly = ['Sign 1000'];
    }, 'bad.json');
    expect(() => loadSpec(bad)).toThrow(/bad\.json: cases\[\d+\]\.formerly\[0\]: ids look like cpu\.group\.name/);
  });
});
