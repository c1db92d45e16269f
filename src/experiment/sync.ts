// The sync wait between upload and download, on the node's own signals instead of a fixed time:
// "tag" polls GET /tags/{uid} until the upload's chunks are synced (synced + seen ≥ split);
// "stewardship" polls GET /stewardship/{reference} until isRetrievable; "none" does not wait.
// "auto" picks per node: none on a dev node (it holds every chunk; checked on v2.7.0 and v2.8.0,
// its tags stay at synced 0 and stewardship answers isRetrievable false, so either would only
// ever reach the ceiling), else tag when the upload returned one, else stewardship.
// Every wait is bounded by the design's ceiling; one that reaches it is journaled synced:false.
import { z } from 'zod';
import { probe } from '../bee/preflight.js';
import type { WaitRule } from './schema.js';

export type Signal = 'tag' | 'stewardship' | 'none';

export const DEV_NODE_NO_WAIT =
  'a dev node holds every chunk itself: its tags never count chunks synced and stewardship says not retrievable, so there is nothing to wait for';

/** The signal one unit waits on. */
export function signalFor(rule: WaitRule, dev: boolean, tag: number | undefined): { signal: Signal; detail?: string } {
  if (rule.signal === 'auto') {
    if (dev) return { signal: 'none', detail: `auto: ${DEV_NODE_NO_WAIT}` };
    return tag !== undefined ? { signal: 'tag' } : { signal: 'stewardship', detail: 'auto: the upload returned no tag' };
  }
  if (rule.signal === 'tag' && tag === undefined)
    return { signal: 'stewardship', detail: 'tag asked for, but the upload returned no tag: stewardship instead' };
  return { signal: rule.signal };
}

const Tag = z.object({ split: z.number(), seen: z.number(), synced: z.number() });
const Stewardship = z.object({ isRetrievable: z.boolean() });

/** One look at the signal: true when synced, else a short description of where it stands. */
export async function probeSignal(url: string, signal: Exclude<Signal, 'none'>, id: { tag?: number; reference?: string }): Promise<true | string> {
  if (signal === 'tag') {
    const r = await probe(`${url}/tags/${id.tag}`);
    const t = Tag.safeParse(JSON.parse(r.body || 'null'));
    if (r.status !== 200 || !t.success) return `GET /tags/${id.tag}: HTTP ${r.status}`;
    const { split, seen, synced } = t.data;
    return split > 0 && synced + seen >= split ? true : `tag ${id.tag}: synced ${synced} + seen ${seen} of split ${split}`;
  }
  const r = await probe(`${url}/stewardship/${id.reference}`);
  let s;
  try {
    s = Stewardship.safeParse(JSON.parse(r.body));
  } catch {
    s = undefined;
  }
  if (r.status !== 200 || !s?.success) return `GET /stewardship: HTTP ${r.status}`;
  return s.data.isRetrievable ? true : 'stewardship: not retrievable yet';
}
