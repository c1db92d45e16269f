// The default branch the action hands to history retention and alerts comes from the event payload.
import { describe, expect, it } from 'vitest';
import { defaultBranchOf } from '../../src/action/context.js';
import { pushEvent, workflowDispatchEvent } from './events.js';

describe('defaultBranchOf', () => {
  it("reads the repository's default branch from any event that carries the repository", () => {
    expect(defaultBranchOf({ payload: pushEvent('ethersphere/bee-js', 'refs/heads/feature', 'a'.repeat(40), 'b'.repeat(40)) })).toBe('main');
    expect(defaultBranchOf({ payload: workflowDispatchEvent('ethersphere/bee-js', 'refs/heads/main', {}) })).toBe('main');
  });

  it('is undefined for a payload without one (a local run)', () => {
    expect(defaultBranchOf({ payload: {} })).toBeUndefined();
    expect(defaultBranchOf({ payload: { repository: { default_branch: '' } } })).toBeUndefined();
  });
});
