// What the profile stage shares between the dumps it reads (docs/profiles.md, "Profile cost"): the
// callgrind names split once per row for every dump (NameCache), and V8's loggers taken out of a
// bee-js dump by copying only what they reach. Each must give what reading a dump alone gives.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NameCache, readDumpProfile } from '../../src/profile/callgrind-read.js';
import { rowProfile } from '../../src/profile/row-profile.js';

const dir = mkdtempSync(join(tmpdir(), 'bee-bench-read-shared-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A dump as a bee-js counting run writes one: compressed names, two callers of context, instruction addresses. */
const dump = (step: number, jit: string, jitIr: number) =>
  [
    'pid: 7',
    `desc: Trigger: Client Request: bee-bench 0 ${step} perf-map=4096`,
    'positions: instr line',
    'events: Ir',
    `fn=(1) ${jit}'Builtins_Call_ReceiverIsAny'run`,
    `0x34061c80 0 ${jitIr}`,
    '+4 0 20',
    "cfn=(2) Builtins_CreateTypedArray'0x0000000034061c80'Builtins_Call_ReceiverIsAny",
    'calls=3 0x18d0840 0',
    '+2 0 900',
    "fn=(2) Builtins_CreateTypedArray'0x0000000034061c80'Builtins_Call_ReceiverIsAny",
    '0x18d0840 0 600',
    "cfn=(3) malloc'Builtins_CreateTypedArray'0x0000000034061c80",
    'calls=3 0x4a00000 0',
    '+8 0 300',
    "fn=(3) malloc'Builtins_CreateTypedArray'0x0000000034061c80",
    '0x4a00000 0 150',
    '+3 0 150',
    // An id defined again names another function from there on.
    "fn=(3) memcpy'malloc'Builtins_CreateTypedArray",
    '0x4b00000 0 40',
    'totals: 0',
    '',
  ].join('\n');

// The JIT code's address renamed per dump, as each dump's symbolizer names it (v8-symbols.ts).
const renamer = (name: string) => (fn: string) => (fn === '0x0000000034061c80' ? name : fn);

describe('the names a row shares between its dumps', () => {
  it('gives each dump the profile it has read alone, names renamed per dump included', () => {
    const a = dump(1, '0x0000000034061c80', 500);
    const b = dump(2, '0x0000000034061c80', 700);
    const shared = new NameCache();
    const first = readDumpProfile(a, renamer('calculateChunkAddress bmt.js'), shared);
    const second = readDumpProfile(b, renamer('log2Reduce index.js'), shared);
    expect(first).toEqual(readDumpProfile(a, renamer('calculateChunkAddress bmt.js')));
    expect(second).toEqual(readDumpProfile(b, renamer('log2Reduce index.js')));
    // The renamed name reaches the context chains of both dumps, each its own.
    expect([...first.contexts.chain.keys()].some((k) => k.includes('calculateChunkAddress bmt.js'))).toBe(true);
    expect([...second.contexts.chain.keys()].some((k) => k.includes('calculateChunkAddress'))).toBe(false);
    expect(second.self.get('log2Reduce index.js')).toBe(720);
    expect(second.self.get('memcpy')).toBe(40);
  });
});

describe("V8's loggers taken out of a bee-js dump", () => {
  it('takes out their own cost, what only they ran, and their share of a callee shared with the timed code', () => {
    // main calls the logger (350 under it) and work (400); both call fprintf, 200 each; snprintf
    // runs under the logger only.
    const text = [
      'pid: 7',
      'desc: Trigger: Client Request: bee-bench 0 1',
      'events: Ir',
      'fn=(1) main',
      '0 1000',
      'cfn=(2) v8::internal::Logger::CodeCreateEvent(v8::internal::LogEventListener::CodeTag)',
      'calls=1 0',
      '0 350',
      'cfn=(3) work',
      'calls=2 0',
      '0 400',
      'fn=(2)',
      '0 100',
      'cfn=(4) fprintf',
      'calls=1 0',
      '0 200',
      'cfn=(5) snprintf',
      'calls=1 0',
      '0 50',
      'fn=(3)',
      '0 200',
      'cfn=(4)',
      'calls=2 0',
      '0 200',
      'fn=(4)',
      '0 400',
      'fn=(5)',
      '0 50',
      'totals: 1750',
      '',
    ].join('\n');
    const file = join(dir, 'callgrind.out.7.1');
    writeFileSync(file, text);
    const p = rowProfile('js', [file]);
    expect([...p.functions.keys()].sort()).toEqual(['fprintf', 'main', 'work']);
    expect(p.functions.get('main')).toMatchObject({ self: 1000, inclusive: 1400 });
    expect(p.functions.get('work')).toMatchObject({ self: 200, inclusive: 400 });
    // Half of fprintf's 400 ran under the logger.
    expect(p.functions.get('fprintf')).toMatchObject({ self: 200, inclusive: 200 });
    expect(p.total).toBe(1400);
    expect([...(p.edges.get('main')?.keys() ?? [])]).toEqual(['work']);
    expect(p.edges.get('work')?.get('fprintf')).toEqual({ calls: 2, ir: 200 });
    // The caller-context graph is taken out the same way.
    expect([...p.contexts.nodes.keys()].sort()).toEqual(['fprintf', 'main', 'work']);
    expect(p.contexts.nodes.get('fprintf')).toMatchObject({ self: 200, inclusive: 200 });
  });
});
