// Wall time: every unit of the plan, the profile's iterations, one native process (src/run/invoke.ts);
// an A/B runs it as lock-step rounds of base and head on one machine (src/run/rounds.ts), judged
// by the paired-rounds rule (src/verdict/judge.ts). Its result is the one the other evidences attach to.
import { invokeRunner } from '../run/invoke.js';
import { MEASURE_NAMES } from '../spec/measure.js';
import type { WallEvidence } from './record.js';

export const WALL: WallEvidence = {
  id: 'wall',
  ...MEASURE_NAMES.wall,
  deterministic: false,
  takes: () => true,
  iterations: 'profile',
  dir: 'results',
  unavailable: async () => null,
  async run(cmd, o) {
    const inv = await invokeRunner(cmd, { plan: o.plan, out: o.out, timeoutMs: o.timeoutMs, fixtures: o.fixtures, bee: o.bee, env: o.env, onLine: o.onLine });
    return { result: inv.result, problems: inv.problem ? [inv.problem] : [] };
  },
};
