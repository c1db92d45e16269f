// The phrases several commands' help shares (client sources, the Bee node, the common flags, the
// verdict defaults): each command's own help is in its file under src/cli/commands.
import { AB_DEFAULTS } from '../verdict/index.js';

export const pct = (f: number) => `${+(f * 100).toFixed(2)}%`;
export const VERDICT_DEFAULTS = `--rounds ${AB_DEFAULTS.rounds}, --alpha ${AB_DEFAULTS.alpha}, --threshold ${AB_DEFAULTS.threshold} (${pct(AB_DEFAULTS.threshold)})`;
export const RUN_FAILS = 'a runner or a case failed (the report says which and why), or the Bee node is unreachable or its batch unusable';

export const SRC = 'SRC is "registry" (the runner\'s pinned client version) or a path to a client checkout.';
export const BEE = `BEE is the node the net.* cases run against (without one they are skipped):
  --bee-url URL --batch-id HEX   a node you run, with a usable postage batch
  --bee dev                      a Bee 2.8.0 dev node in Docker (ethersphere/bee:2.8.0), on 127.0.0.1
  --bee-binary PATH              the same from a local bee executable, without Docker
  --bee-port N                   host port of the dev node (default: a free one)
  A dev node gets a fresh postage batch and is stopped and removed when the command ends.`;
export const COMMON = `Common: --spec FILE (default: the bundled spec/bench-spec.json), --cache DIR (build cache,
default .bee-bench/cache), --build-command CMD (how to build a client checkout).`;
export const MEASURE = `--measure: a comma list of wall (default), instructions (counts of the CPU cases under
valgrind's callgrind), allocations (heap allocations and bytes per iteration of the CPU cases,
the runtime's own accounting, in runs of their own) and cycles (estimated cycles: the counting
runs with callgrind's cache simulation, about 5x their time); both = wall,instructions. Net
cases are only timed.`;
export const HISTORY = `History: --workdir DIR is the local clone of the history branch (default .bee-bench/history);
publishes sharing one wait for each other.`;

export const EXPERIMENT_DESIGN = `DESIGN is --design FILE (JSON, schema bee-bench/experiment-design@1) or these flags:
  --node LABEL=RELEASE@URL[#BATCH_ID]...  the nodes (a dev node without a batch gets one bought)
  --sizes 1KB,10KB,100KB   --levels 0,2,4   --strategies DATA,RACE (level 0 always uses NONE)
  --replicates 5  --attempts 15  --timeout 120 (s per download attempt)  --upload deferred|direct
  --endpoint bytes|bzz  --wait auto|tag|stewardship|none  --ceiling 7200  --poll 10 (seconds)
  --seed HEX64 (default: random, journaled)  --order blocked|sequential  --fallback true|false
KB/MB are decimal (1KB = 1000 bytes), KiB/MiB binary. blocked order: each replicate is a block of
every cell on every node, shuffled by the seed, a cell's nodes back to back.`;
