// Wall time: every unit of the plan, the profile's iterations, one native process (src/run/invoke.ts);
// an A/B runs it as lock-step rounds of base and head on one machine (src/run/rounds.ts), judged
// by the paired-rounds rule (src/verdict/judge.ts). Its result is the one the other evidences attach to.
import { invokeRunner } from '../run/invoke.js';
import type { WallEvidence } from './record.js';
import { WALL_VIEW } from './views.js';

export const WALL: WallEvidence = {
  id: 'wall',
  label: WALL_VIEW.label,
  view: WALL_VIEW,
  deterministic: false,
  takes: () => true,
  iterations: 'profile',
  slowdown: { setup: 1, warmup: 1, timed: 1 },
  dir: 'results',
  unavailable: async () => null,
  async run(cmd, o) {
    const inv = await invokeRunner(cmd, { plan: o.plan, out: o.out, timeoutMs: o.timeoutMs, fixtures: o.fixtures, bee: o.bee, env: o.env, onLine: o.onLine });
    return { result: inv.result, problems: inv.problem ? [inv.problem] : [] };
  },
};
