// --measure and the action's measure input: a comma list; both is wall,instructions.
import { describe, expect, it } from 'vitest';
import { MeasureSchema } from '../../src/spec/measure.js';

describe('MeasureSchema', () => {
  it('reads a comma list into the kinds, each once, in a fixed order', () => {
    expect(MeasureSchema.parse('wall')).toEqual(['wall']);
    expect(MeasureSchema.parse('allocations, wall')).toEqual(['wall', 'allocations']);
    expect(MeasureSchema.parse('instructions,allocations,instructions')).toEqual(['instructions', 'allocations']);
  });

  it('keeps both as wall,instructions, also inside a list', () => {
    expect(MeasureSchema.parse('both')).toEqual(['wall', 'instructions']);
    expect(MeasureSchema.parse('both,allocations')).toEqual(['wall', 'instructions', 'allocations']);
  });

  it('refuses unknown kinds and an empty list', () => {
    for (const bad of ['', 'memory', 'wall,,', 'wall;instructions']) expect(MeasureSchema.safeParse(bad).success, bad).toBe(false);
  });
});
