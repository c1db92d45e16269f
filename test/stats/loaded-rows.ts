// Real first-pass samples (ns per iteration, with each iteration's work units) of `bee-bench run --case
// 'cpu.*' --size quick`, three clients on a 2-core machine at load 10-18: rows the interval-overlap rule
// left open although the clients' iterations tell them apart, and rows whose clients are as fast as
// that machine could tell. The scoreboard's tests (test/stats/scoreboard.test.ts) rank them.
import type { Runner } from '../../src/spec/schema.js';

export interface LoadedCell {
  units: number;
  samples: number[];
}

export type LoadedRow = Partial<Record<Runner, LoadedCell>>;

/** Told apart by every pair of iterations (bee-go vs bee-rs 1.12x-1.44x), open under the overlap of the medians' intervals. */
export const TOLD_APART: Record<string, LoadedRow> = {
  // load 10-15; bee-go fastest, bee-rs 1.44x
  'cpu.bmt.file-root': {
    js: { units: 524_288, samples: [115376740, 180207584, 249291966, 192683137, 183045393] },
    go: { units: 4_194_304, samples: [161836027, 140546321, 187144172, 140752787, 131087461] },
    rs: { units: 4_194_304, samples: [186768955, 201092850, 202910045, 208005782, 212765532] },
  },
  // load 10-15; bee-go fastest, bee-rs 1.12x (bee-go's 129 ms iteration widens its range)
  'cpu.ecdsa.verify': {
    js: { units: 6, samples: [710182444, 763108791, 742778758, 675826103, 709429657] },
    go: { units: 2000, samples: [294725982, 128925655, 230535197, 282685083, 301352750] },
    rs: { units: 2000, samples: [312493022, 362418284, 296137204, 315676815, 347384411] },
  },
  // load 15-18; bee-go fastest, bee-rs 1.40x (its 252 ms iteration reaches bee-go's range)
  'cpu.keccak.bulk': {
    js: { units: 2_097_152, samples: [97196276, 125320508, 131831906, 130793966, 127593329] },
    go: { units: 33_554_432, samples: [294347650, 188974427, 212705924, 210435236, 248109662] },
    rs: { units: 33_554_432, samples: [302834457, 293585610, 297595568, 305713487, 252255462] },
  },
};

/** Not told apart: bee-go and bee-rs 1.00x after 15 iterations each (load 15-18), and 1.55x on 5 iterations with bee-go spread 195-515 ms (load 10-15). */
export const OPEN: Record<string, LoadedRow> = {
  'cpu.keccak.parallel': {
    js: { units: 819_200, samples: [400810270, 299708050, 338117367, 429732696, 218131310] },
    go: {
      units: 16_384_000,
      samples: [
        796795383, 826368298, 844530226, 708291929, 711095969, 949184729, 932475842, 955681914, 950146840, 912020143, 1096118904, 939691569, 909958786,
        888924108, 832384737,
      ],
    },
    rs: {
      units: 16_384_000,
      samples: [
        764097938, 855367744, 851958969, 854996483, 779617095, 836073658, 1023830969, 924585454, 951274998, 910286237, 960048171, 913536777, 939954594,
        955974018, 771961681,
      ],
    },
  },
  'cpu.identity.create': {
    js: { units: 6, samples: [262358942, 370994403, 373038901, 269184509, 162647870] },
    go: { units: 3000, samples: [292002813, 195774281, 407393313, 514781064, 416108299] },
    rs: { units: 3000, samples: [248921857, 239661668, 283525329, 322548356, 262529930] },
  },
};
