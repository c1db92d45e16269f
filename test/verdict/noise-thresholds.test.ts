// Thresholds from the noise (src/verdict/steps.ts, docs/calibration.md "Thresholds from the noise"):
// each count or allocation row flags at the larger of the floor (0.5% by default) and ten A/A
// spreads. The expected figures are worked out by hand in the comments, not read back from the code.
import { describe, expect, it } from 'vitest';
import { ALLOCATION_DEFAULTS, INSTRUCTION_DEFAULTS, judgeAllocations, judgeSteps } from '../../src/verdict/index.js';
import { countVerdict, stepBar } from '../../src/verdict/steps.js';
import { changeFloor, UsageError, type Values } from '../../src/cli/flags.js';

const floor = { floor: INSTRUCTION_DEFAULTS.floor };
const times = (xs: readonly number[], f: number) => xs.map((x) => Math.round(x * f));

describe('the floor', () => {
  it('is 0.5% for counts and allocations alike', () => {
    expect(INSTRUCTION_DEFAULTS.floor).toBe(0.005);
    expect(ALLOCATION_DEFAULTS.floor).toBe(0.005);
  });
});

describe('a quiet row (A/A spread far under a tenth of the floor) catches 0.5%', () => {
  // bee-rs keccak.bulk: both base processes count the same to the instruction (spread 0).
  const base = [412_000_000, 412_000_000, 412_000_000];

  it('threshold 0.5%, and the change needed 0.45% (0.5% less the 0.05-point tolerance)', () => {
    const v = judgeSteps(base, base, times(base, 1.005), floor);
    expect(v.spread).toBe(0);
    expect(v.threshold).toBe(0.005);
    expect(v.bar).toBeCloseTo(0.0045, 12);
    expect(v.verdict).toBe('regression');
  });

  it('flags the injected 0.5% whichever side of 1.005 the last instructions fall, and not 0.44%', () => {
    // A few hundred instructions either side of base x 1.005 (the runner's spin is sized per step).
    for (const off of [-400, 0, 400])
      expect(
        judgeSteps(
          base,
          base,
          times(base, 1.005).map((x) => x + off),
          floor,
        ).verdict,
      ).toBe('regression');
    expect(judgeSteps(base, base, times(base, 0.995), floor).verdict).toBe('improvement');
    expect(judgeSteps(base, base, times(base, 1.0044), floor).verdict).toBe('~');
  });

  it('bee-js keccak.bulk (spread 0.027%): threshold still 0.5%, tolerance three spreads, so 0.42% is needed', () => {
    // spread 0.00027: ten spreads 0.27% < 0.5%; tolerance max(0.05%, 3 x 0.027% = 0.081%) -> 0.5 - 0.081 = 0.419%.
    const b = [1_000_000_000];
    const again = [1_000_270_000];
    const v = judgeSteps(b, again, [1_005_000_000], floor);
    expect(v.spread).toBeCloseTo(0.00027, 9);
    expect(v.threshold).toBe(0.005);
    expect(v.bar).toBeCloseTo(0.00419, 9);
    expect(v.verdict).toBe('regression');
    // An A/A head at the far base process moves 0.0135% from the bases' mean: nothing.
    expect(judgeSteps(b, again, again, floor).verdict).toBe('~');
  });
});

describe('a noisy row is protected at ten spreads', () => {
  // bee-js harness.noop: base processes 0.1253% apart, so ten spreads 1.253% > the floor.
  const b = [61_000];
  const again = [Math.round(61_000 * 1.001253)];

  it('threshold and change needed are ten spreads, with no tolerance under them', () => {
    const v = judgeSteps(b, again, [61_000 * 1.02], floor);
    expect(v.spread).toBeCloseTo(0.001253, 4);
    expect(v.threshold).toBeCloseTo(10 * v.spread, 12);
    expect(v.bar).toBe(v.threshold);
    expect(v.verdict).toBe('regression');
  });

  it('a 0.5% change and a 1.2% one are not flagged', () => {
    // Against the bases' mean (61_038.2): head 1.2% above it is under 1.253%.
    const mean = (b[0]! + again[0]!) / 2;
    expect(judgeSteps(b, again, [Math.round(mean * 1.005)], floor).verdict).toBe('~');
    expect(judgeSteps(b, again, [Math.round(mean * 1.012)], floor).verdict).toBe('~');
  });
});

describe('at the edge between the two', () => {
  it('is continuous: ten spreads exactly the floor puts threshold and change needed at the floor', () => {
    // spread 0.05%: threshold max(0.5%, 0.5%); change needed max(0.5% - max(0.05%, 0.15%), 0.5%) = 0.5%.
    const at = stepBar(0.0005, floor);
    expect(at.threshold).toBeCloseTo(0.005, 12);
    expect(at.bar).toBeCloseTo(0.005, 12);
    // Just under: spread 0.049% -> threshold 0.5%, change needed max(0.5 - 0.147, 0.49) = 0.49%.
    const under = stepBar(0.00049, floor);
    expect(under.threshold).toBe(0.005);
    expect(under.bar).toBeCloseTo(0.0049, 12);
    // Just over: spread 0.051% -> both 0.51%.
    const over = stepBar(0.00051, floor);
    expect(over.threshold).toBeCloseTo(0.0051, 12);
    expect(over.bar).toBeCloseTo(0.0051, 12);
  });

  it('never lets an A/A run through: the change needed is at least ten spreads at any spread', () => {
    for (const spread of [0, 1e-6, 1e-4, 3e-4, 4.9e-4, 5e-4, 1e-3, 0.01]) {
      const { threshold, bar } = stepBar(spread, floor);
      expect(bar).toBeGreaterThanOrEqual(10 * spread);
      expect(bar).toBeLessThanOrEqual(threshold);
      // An A/A head one spread off the bases: '~' in both directions.
      expect(countVerdict(1 + spread, spread, floor).verdict).toBe('~');
      expect(countVerdict(1 / (1 + spread), spread, floor).verdict).toBe('~');
    }
  });
});

describe('another floor', () => {
  it('--instructions-floor 0.002: a quiet row flags 0.2%, with the tolerance capped at a tenth of the floor', () => {
    // tolerance max(min(0.05%, 0.02%), 0) = 0.02% -> change needed 0.18%.
    const base = [10_000_000];
    const v = judgeSteps(base, base, [10_020_000], { floor: 0.002 });
    expect(v.threshold).toBe(0.002);
    expect(v.bar).toBeCloseTo(0.0018, 12);
    expect(v.verdict).toBe('regression');
    expect(judgeSteps(base, base, [10_017_000], { floor: 0.002 }).verdict).toBe('~');
    // The default floor does not flag that 0.2%.
    expect(judgeSteps(base, base, [10_020_000], floor).verdict).toBe('~');
  });

  it('a floor of 1% is the former fixed rule: 0.95% needed on a quiet row, ten spreads on a noisy one', () => {
    expect(stepBar(0, { floor: 0.01 }).bar).toBeCloseTo(0.0095, 12);
    const noisy = stepBar(0.003, { floor: 0.01 });
    expect(noisy.threshold).toBeCloseTo(0.03, 12);
    expect(noisy.bar).toBeCloseTo(0.03, 12);
  });
});

describe('allocations take the same rule, per figure', () => {
  it('bytes at the floor, an allocation count whose processes wander at ten spreads', () => {
    const bytes = [200_000, 200_000, 200_000];
    const allocs = [1000, 1000, 1000];
    const allocsAgain = [1002, 1002, 1002];
    // bytes +0.5% (spread 0: threshold 0.5%); allocs +0.5% against spread 0.2% (threshold 2%).
    const v = judgeAllocations(
      { bytes, allocs },
      { bytes, allocs: allocsAgain },
      { bytes: times(bytes, 1.005), allocs: [1006, 1006, 1006] },
      { floor: ALLOCATION_DEFAULTS.floor },
    );
    expect(v.bytes.threshold).toBe(0.005);
    expect(v.bytes.verdict).toBe('regression');
    expect(v.allocs!.threshold).toBeCloseTo(0.02, 3);
    expect(v.allocs!.verdict).toBe('~');
    expect(v.verdict).toBe('regression');
  });
});

describe('--instructions-floor, --allocations-floor (the CLI)', () => {
  const floorOf = (v: Partial<Values>, evidence: 'instructions' | 'allocations' = 'instructions') =>
    changeFloor(v as Values, evidence, evidence === 'instructions' ? INSTRUCTION_DEFAULTS.floor : ALLOCATION_DEFAULTS.floor);

  it('is the default floor when not given, the given one otherwise, the former --…-threshold name alike', () => {
    expect(floorOf({})).toBe(0.005);
    expect(floorOf({ 'instructions-floor': '0.002' })).toBe(0.002);
    expect(floorOf({ 'instructions-threshold': '0.01' })).toBe(0.01);
    expect(floorOf({ 'allocations-floor': '0.02' }, 'allocations')).toBe(0.02);
    // One evidence's flag leaves the other's floor alone.
    expect(floorOf({ 'allocations-floor': '0.02' })).toBe(0.005);
  });

  it('refuses both names at once, and a floor that is no fraction, naming the flag', () => {
    expect(() => floorOf({ 'instructions-floor': '0.002', 'instructions-threshold': '0.01' })).toThrow(UsageError);
    expect(() => floorOf({ 'instructions-floor': '0.002', 'instructions-threshold': '0.01' })).toThrow(
      /--instructions-threshold 0.01: the former name of --instructions-floor/,
    );
    expect(() => floorOf({ 'instructions-floor': '0' })).toThrow(/--instructions-floor 0: a fraction/);
    expect(() => floorOf({ 'allocations-threshold': 'x' }, 'allocations')).toThrow(/--allocations-threshold x/);
  });
});

describe("a figure's quantum (estimated cycles: cache lines) sets the floor of an almost empty row", () => {
  // Two lines missed in both levels: 2 x (10 + 100) = 220 cycles (src/evidence/cycles.ts).
  const resolution = 220;

  it("bee-go's empty noop: two processes one line apart (8,129 and 8,239) are not a change; its injected doubling is", () => {
    // floor = max(0.5%, 220 / 8,129) = 2.706%; tolerance min(0.05%, 0.05%) -> bar 2.656%; 8,239 / 8,129 = +1.35%.
    const quiet = [8129];
    const v = judgeSteps(quiet, quiet, [8239], { ...floor, resolution });
    expect(v.threshold).toBeCloseTo(220 / 8129, 9);
    expect(v.verdict).toBe('~');
    expect(judgeSteps(quiet, quiet, [16_364], { ...floor, resolution }).verdict).toBe('regression');
    // Without the quantum the same pair is a red row: the false flag the floor guards against.
    expect(judgeSteps(quiet, quiet, [8239], floor).verdict).toBe('regression');
  });

  it('leaves a row of millions of cycles at the floor', () => {
    // 220 / 636,965,668 = 0.0000345%: the 0.5% floor stands.
    const base = [636_965_668];
    const v = judgeSteps(base, base, times(base, 1.01), { ...floor, resolution });
    expect(v.threshold).toBe(0.005);
    expect(v.verdict).toBe('regression');
  });
});
