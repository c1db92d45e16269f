// The CLI's help: one entry per command in COMMANDS (usage lines, a summary, the details shown by
// `bee-bench COMMAND --help` and `bee-bench help COMMAND`). A new command is one more entry; the
// global help and docs/cli.md's CLI block (test/cli/help.test.ts) are built from the same lines.

import { AB_DEFAULTS, ALLOCATION_DEFAULTS, INSTRUCTION_DEFAULTS } from '../verdict/index.js';

export interface CommandHelp {
  /** What is typed after `bee-bench`: "run", "history publish". */
  name: string;
  /** Synopsis lines; the first starts with `bee-bench NAME`, continuation lines are indented. */
  usage: string[];
  summary: string;
  /** Shown by the command's own help, after the usage. */
  details: string;
  /** What exit code 1 means for this command (its help's exit-code line). */
  fails: string;
  /** Worked examples the command's help opens with: a comment line saying what for, then the command. */
  examples?: ReadonlyArray<{ what: string; command: string }>;
}

const pct = (f: number) => `${+(f * 100).toFixed(2)}%`;
const VERDICT_DEFAULTS = `--rounds ${AB_DEFAULTS.rounds}, --alpha ${AB_DEFAULTS.alpha}, --threshold ${AB_DEFAULTS.threshold} (${pct(AB_DEFAULTS.threshold)})`;
const RUN_FAILS = 'a runner or a case failed (the report says which and why), or the Bee node is unreachable or its batch unusable';

const SRC = 'SRC is "registry" (the runner\'s pinned client version) or a path to a client checkout.';
const BEE = `BEE is the node the net.* cases run against (without one they are skipped):
  --bee-url URL --batch-id HEX   a node you run, with a usable postage batch
  --bee dev                      a Bee 2.8.0 dev node in Docker (ethersphere/bee:2.8.0), on 127.0.0.1
  --bee-binary PATH              the same from a local bee executable, without Docker
  --bee-port N                   host port of the dev node (default: a free one)
  A dev node gets a fresh postage batch and is stopped and removed when the command ends.`;
const COMMON = `Common: --spec FILE (default: the bundled spec/bench-spec.json), --cache DIR (build cache,
default .bee-bench/cache), --build-command CMD (how to build a client checkout).`;
const MEASURE = `--measure: a comma list of wall (default), instructions (counts of the CPU cases under
valgrind's callgrind) and allocations (heap allocations and bytes per iteration of the CPU cases,
the runtime's own accounting, in runs of their own); both = wall,instructions. Net cases are only
timed.`;
const HISTORY = `History: --workdir DIR is the local clone of the history branch (default .bee-bench/history);
publishes sharing one wait for each other.`;

const EXPERIMENT_DESIGN = `DESIGN is --design FILE (JSON, schema bee-bench/experiment-design@1) or these flags:
  --node LABEL=RELEASE@URL[#BATCH_ID]...  the nodes (a dev node without a batch gets one bought)
  --sizes 1KB,10KB,100KB   --levels 0,2,4   --strategies DATA,RACE (level 0 always uses NONE)
  --replicates 5  --attempts 15  --timeout 120 (s per download attempt)  --upload deferred|direct
  --endpoint bytes|bzz  --wait auto|tag|stewardship|none  --ceiling 7200  --poll 10 (seconds)
  --seed HEX64 (default: random, journaled)  --order blocked|sequential  --fallback true|false
KB/MB are decimal (1KB = 1000 bytes), KiB/MiB binary. blocked order: each replicate is a block of
every cell on every node, shuffled by the seed, a cell's nodes back to back.`;

export const COMMANDS: readonly CommandHelp[] = [
  {
    name: 'run',
    usage: [
      'bee-bench run     [--runner js|go|rs]... [--js-client SRC] [--go-client SRC] [--rs-client SRC]',
      '                  [--profile quick|full] [--case GLOB]... [--large] [BEE] [--out DIR]',
      '                  [--measure wall,instructions,allocations|both]',
      'bee-bench run     --shard K/N [the selection of plan --shards] [--assignment FILE] [--prebuilt] [BEE] [--out DIR]',
    ],
    summary: 'build the runners and run the cases; writes OUT/report.{md,html,csv} (default out/)',
    details: `${SRC}
--shard K/N runs exactly shard K's part of a sharded run (the --assignment file of plan --shards,
else worked out again from the same selection flags) into OUT (default out/shard-K-of-N);
--prebuilt uses the builds in --cache (from \`bee-bench build\`) and never builds: a build of other
inputs is refused by name. A dev node (--bee dev) is started only when the shard has net cases.
--case takes an id or a glob (* matches any run of characters): --case 'cpu.keccak.*'.
bee-go's pinned version comes through the Go module proxy (GOPROXY); where the proxy does not
serve it, run skips bee-go (the report says so) unless a checkout is given: --go-client PATH (or
BEE_GO_PATH). A build's tool output goes to build.log in its cache folder (one console line
per build names it). The console names each step (builds, cases, counting) with its estimate,
then a line per build start and finished case with an ETA, and a heartbeat every 10 s of silence.
Defaults: all three runners (--runner js --runner go --runner rs), every client from its registry,
--profile quick, every case, --measure wall, --out out.
${BEE}
${MEASURE}
${COMMON}`,
    fails: RUN_FAILS,
  },
  {
    name: 'ab',
    usage: [
      'bee-bench ab      --runner js|go|rs --base SRC --head SRC [--rounds N] [--alpha A] [--threshold T]',
      '                  [--profile quick|full] [--case GLOB]... [--out DIR] [--fail-on-regression]',
      '                  [--base-env K=V]... [--head-env K=V]... [BEE] [--measure wall,instructions,allocations|both]',
      '                  [--instructions-floor F] [--allocations-floor F] [--profile-case GLOB]...',
      '                  [--fail-on wall|instructions|allocations|any]',
      'bee-bench ab      --runner js|go|rs --base-bee BEE --head-bee BEE [--base-batch-id HEX] [--head-batch-id HEX]',
      "                  [--<runner>-client SRC] [--case 'net.*']... (the other flags as above, wall time only)",
    ],
    summary: 'one runner built on two client sources (or one client against two Bee nodes), interleaved rounds, a verdict per row',
    examples: [
      {
        what: "a PR's base against its head: two bee-js checkouts, every CPU case",
        command: "bee-bench ab --runner js --base ../bee-js-main --head ../bee-js --case 'cpu.*'",
      },
      {
        what: 'where it moved: instruction counts beside wall time, and the functions behind each flagged row (and every bmt row)',
        command: "bee-bench ab --runner rs --base registry --head ../bee-rs --measure wall,instructions --profile-case 'cpu.bmt.*'",
      },
      {
        what: 'a node A/B: one bee-js build against two Bee releases, each started as a dev node (or a URL with --base-batch-id/--head-batch-id)',
        command: "bee-bench ab --runner js --base-bee ./bee-2.7.0 --head-bee ./bee-2.8.0 --case 'net.*'",
      },
    ],
    details: `${SRC}
--base-bee BEE --head-bee BEE: the Bee node is the variable instead: one client build (--<runner>-client
SRC, BEE_GO_PATH for go, else the registry release) runs its rounds against two nodes, each a Bee
executable started as a dev node for the job (\`bee dev\`: Bee 2.8.0 or older) or the URL of a running
node with its batch (--base-batch-id, --head-batch-id). The sides are labelled by the nodes'
versions (GET /health; --base-label/--head-label override); ab.md and ab.json name both nodes.
--fail-on: which evidence --fail-on-regression acts on.
--piece P --split N: measure one piece of the A/B into --out/piece.json, no report (a PR as
parallel jobs: wall time is one piece, instructions and allocations N pieces each, split by case;
a count piece profiles the rows its counts flag into --out/profiles/);
\`bee-bench merge --out DIR PIECE_DIR...\` judges them as one A/B and names a missing piece.
--keep-raw keeps the counting runs' callgrind dumps in --out/counts/raw-<run>/; --marker TEXT sets
the comment's marker. --profile-case GLOB: with instruction counts, those cases' rows get "Where
it moved" and profile files even when their counts flag nothing (a change under the threshold).
--instructions-floor, --allocations-floor: a counted row's threshold is the larger of the floor and
ten times its A/A spread (base against itself); the comment and ab.json give each row's.
--instructions-threshold and --allocations-threshold are their former names.
Defaults: ${VERDICT_DEFAULTS}, --instructions-floor ${INSTRUCTION_DEFAULTS.floor} (${pct(INSTRUCTION_DEFAULTS.floor)}),
--allocations-floor ${ALLOCATION_DEFAULTS.floor} (${pct(ALLOCATION_DEFAULTS.floor)}), --fail-on any, --measure wall, --profile quick, every case, --out out.
${BEE}
${MEASURE}
${COMMON}`,
    fails: `${RUN_FAILS}, or --fail-on-regression found a regression or a row that failed or is missing in head`,
  },
  {
    name: 'profile',
    usage: ['bee-bench profile --runner js|go|rs --case ID [--param LABEL] [--base SRC] --head SRC', '                  [--profile quick|full] [--out DIR]'],
    summary: "one CPU row's function profile under callgrind: one side, or where base and head differ",
    examples: [
      {
        what: 'where one row spends its instructions: bee-rs as released, one side',
        command: 'bee-bench profile --runner rs --case cpu.bmt.file-root --head registry',
      },
      {
        what: 'where a change moved it: the released bee-js against a checkout, function by function',
        command: 'bee-bench profile --runner js --case cpu.keccak.bulk --param quick --base registry --head ../bee-js',
      },
    ],
    details: `${SRC}
Counts the row alone under callgrind (valgrind needed) and writes DIR/profiles/<case>~<param>/:
callgrind.out.base/head (callgrind_annotate, KCachegrind), base/head.pb.gz (go tool pprof
-diff_base), base/head.folded (flame graphs) and, with both sides, diff.json and diff.html.
Prints the row's function lists (instructions under callgrind, not time). Defaults: --base none
(one side), --profile quick, --out out.
${COMMON}`,
    fails: 'valgrind is missing, a build failed, or the row could not be counted',
  },
  {
    name: 'bisect',
    usage: [
      'bee-bench bisect  --runner js|go|rs --good REF --bad REF --case ID [--path CHECKOUT] [--rounds N]',
      '                  [--alpha A] [--threshold T] [--profile quick|full] [--out DIR]',
      '                  [--measure wall|instructions]',
    ],
    summary: 'find the first commit of a client checkout that made a case slower',
    details: `Walks the first-parent commits of the client checkout at --path (default .) from --good
(excluded) to --bad, each step an A/B against --good, and names the first commit whose change
exceeds the threshold (or says "no change found"). Steps count instructions where valgrind is
installed, else time paired rounds (--measure wall forces wall time).
Defaults: --path ., ${VERDICT_DEFAULTS}, --measure instructions where valgrind is installed (else wall),
--profile quick, --out out.
${COMMON}`,
    fails: 'a build or a step failed',
  },
  {
    name: 'plan',
    usage: [
      'bee-bench plan    --runner js|go|rs [--profile quick|full] [--case GLOB]... [--large]',
      'bee-bench plan    --shards N [--runner js,go,rs] [--profile quick|full] [--case GLOB]... [--large]',
      '                  [--measure M] [--history DIR] [--assignment FILE]',
    ],
    summary: 'the resolved plan a runner executes, or the matrix of a sharded run',
    details: `With --runner: the plan (bee-bench/plan@1, spec/plan.schema.json) as JSON on stdout; a runner
runs it with \`run --plan FILE --out FILE\` (runners/README.md). The test hooks (BEE_BENCH_FAULT,
BEE_BENCH_SLOWDOWN, BEE_BENCH_ALLOC, BEE_BENCH_ITERS, BEE_BENCH_CASE_TIMEOUT_S) are resolved into it.
With --shards N: a matrix for GitHub's strategy.matrix ({"include": [{"shard": "1/N", ...}]}),
shards balanced by expected cost (--history DIR: a history folder's last recorded times, else
an estimate from the spec). Wall time keeps every client of a case on one shard; counts split
per runner and unit. --assignment FILE also writes which shard runs what, for the shard jobs.
Defaults: --profile quick, every case, --measure wall; with --shards, all three runners.
${COMMON}`,
    fails: 'never (problems are bad input: 2)',
  },
  {
    name: 'merge',
    usage: ['bee-bench merge   --out DIR SHARD_DIR...'],
    summary: "the shards' outputs joined as one run's results and report; or an A/B's pieces judged as one",
    details: `Writes DIR/results/<runner>.json and the report, as run --out DIR does, with a Shards section
(each shard's machine and time). Every planned row is accounted for: a shard with no output or a
row no shard delivered is named, with its rows, and the exit code is 1; so is a digest that
differs between shards.
Given the folders of \`ab --piece\` instead (each with piece.json; --marker TEXT as in ab), writes DIR/ab.md, DIR/ab.json and
the count pieces' flagged rows' DIR/profiles/ as one \`ab\` would, and prints the report; a piece
of the split that is missing is named and the exit code is 1. Runs no client code.`,
    fails: 'a shard, a piece or a row is missing, or a digest differs between shards',
  },
  {
    name: 'build',
    usage: ['bee-bench build   [--runner js|go|rs]... [--js-client SRC] [--go-client SRC] [--rs-client SRC] [--cache DIR]'],
    summary: 'build the runners into the cache, run nothing (the build job of a sharded run)',
    details: `${SRC}
Each build sits in the cache under its inputs' hash (runner sources, client, toolchain); shards
given the same cache with --prebuilt run it without building.
Defaults: all three runners, every client from its registry, --cache .bee-bench/cache.
${COMMON}`,
    fails: 'a build failed',
  },
  {
    name: 'report',
    usage: ['bee-bench report  --out DIR RESULT.json|DIR...'],
    summary: 'the aggregate report (md, html, csv) from result files',
    details: 'Result files are named directly or found (*.json, recursively) under the folders given.',
    fails: 'never (unreadable results are bad input: 2)',
  },
  {
    name: 'compare',
    usage: ['bee-bench compare OLD_DIR NEW_DIR [--out FILE]'],
    summary: 'what changed between two folders of results',
    details: 'Prints the comparison as markdown; --out also writes it to FILE (default: stdout only).',
    fails: 'never (unreadable results are bad input: 2)',
  },
  {
    name: 'history publish',
    usage: [
      'bee-bench history publish    --remote URL|PATH [--history-branch gh-pages] [--folder bench]',
      '                             [--max-runs N] [--default-branch NAME] [--repo DIR] [--event E] [--run-id ID]',
      '                             [--commit-url URL | --repo-url URL] [--workdir DIR] RESULT.json|DIR...',
    ],
    summary: 'add results to the gh-pages history and the trend site',
    details: `${HISTORY}
--commit-url (or --repo-url, which gives <URL>/commit/<sha>) lets the site link the measured
commit. --default-branch NAME is the branch the site's files always keep (default: the
branch with the most records; others are kept while recently active).
Defaults: --history-branch gh-pages, --folder bench, --repo . (its HEAD is the recorded commit),
--event local, --run-id local-<time>, every point kept up to the store's retention.`,
    fails: 'the history could not be written (the message says why; nothing half-written is pushed)',
  },
  {
    name: 'history import-gab',
    usage: ['bee-bench history import-gab --remote URL|PATH [--runner js|go|rs] [--ref BRANCH] [--default-branch NAME] [--workdir DIR] DATA.js|JSON'],
    summary: 'import a github-action-benchmark data.js into the history',
    details: `${HISTORY}
Defaults: --history-branch gh-pages, --folder bench, --ref the current branch.`,
    fails: 'no bench of the file has a time (nothing is committed), or the history could not be written',
  },
  {
    name: 'history export-gab',
    usage: [
      'bee-bench history export-gab RESULT.json|RECORD.json [--out FILE]',
      'bee-bench history export-gab --data-js HISTORY_DIR|RECORD.json... [--out FILE]',
    ],
    summary: 'benches for github-action-benchmark, or a whole data.js back',
    details: 'Prints to stdout unless --out FILE is given.',
    fails: 'never (unreadable input is bad input: 2)',
  },
  {
    name: 'site',
    usage: ['bee-bench site    --history DIR | --remote URL|PATH [--history-branch gh-pages] [--folder bench] [--port 8080]'],
    summary: 'serve the trend site over a history on 127.0.0.1 and print its URL',
    details: `--history DIR is a history folder (the one history publish writes: bench/ of the history branch);
--remote clones the history branch (default gh-pages) of a repository and serves its --folder
(default bench). The page is this version's site (pages/dist); the data is the history's. Listens
on 127.0.0.1 only, port --port (default 8080; 0 picks a free one), until Ctrl-C. Browsers do not
run the page's script when it is opened as a file: serve it with this command instead.`,
    fails: 'the server could not start (the port is in use, say)',
  },
  {
    name: 'experiment run',
    usage: ['bee-bench experiment run      --runner js|go|rs (--design FILE | DESIGN) [--out DIR] [--js-client SRC] [--cache DIR]'],
    summary: 'the Bee release experiment: unique uploads, a sync wait, checked downloads, journaled',
    details: `${EXPERIMENT_DESIGN}
A run folder (--out, default experiment/) holds journal.jsonl, one fsync'd row per upload, sync
wait and download attempt. Run the same command again on the same folder after a kill or a crash:
it continues after the last row, repeating none (the design then comes from the journal).
Example, two dev nodes side by side (started by hand: bee dev --api-addr=127.0.0.1:1633, :1634):
  bee-bench experiment run --runner js --out exp1 \\
    --node a=2.7.0@http://127.0.0.1:1633 --node b=2.8.0@http://127.0.0.1:1634 \\
    --sizes 1KB,10KB,100KB --levels 0,2,4 --strategies DATA,RACE --replicates 5
  bee-bench experiment status --out exp1
More: docs/experiment.md (real nodes, what a dev node cannot show, the cost of a full study).`,
    fails: 'a node or the runner failed (the message names it; the journal keeps every finished row: run again to continue)',
  },
  {
    name: 'experiment upload',
    usage: ['bee-bench experiment upload   --runner js|go|rs (--design FILE | DESIGN) [--out DIR]'],
    summary: 'the upload phase alone: one unique payload per unit, journaled',
    details: 'Starts or continues a run folder (default --out experiment/); wait and download can follow hours later from the folder alone.',
    fails: 'a node or the runner failed (run again to continue)',
  },
  {
    name: 'experiment wait',
    usage: ['bee-bench experiment wait     --runner js|go|rs [--out DIR]'],
    summary: "the sync wait alone: each upload waited for on the node's own signal, up to the ceiling",
    details: `The design's wait rule: --wait auto|tag|stewardship|none, --ceiling SECONDS, --poll SECONDS.
auto waits for nothing on a dev node (it holds every chunk), else for the upload's tag.
A wait that reaches the ceiling is journaled as not synced; its unit is still downloaded.
Default --out experiment/; the rule is the run's, from its journal.`,
    fails: 'a node failed, or the uploads are not finished',
  },
  {
    name: 'experiment download',
    usage: ['bee-bench experiment download --runner js|go|rs [--out DIR]'],
    summary: 'the download phase (after any sync wait left): attempts up to --attempts, content checked',
    details: 'Each attempt is bounded by --timeout; a wrong byte is a failed attempt, never a time. Default --out experiment/.',
    fails: 'a node or the runner failed (run again to continue)',
  },
  {
    name: 'experiment compare',
    usage: ['bee-bench experiment compare  A_DIR B_DIR [--out DIR] [--alpha 0.05]'],
    summary: "two runs (one release each) compared per cell, the seed study's way",
    details: `Per cell (size × level × strategy, per server and pooled): Mann–Whitney, the Hodges–Lehmann
shift with its 95% interval, BH-corrected across cells at --alpha; failures per cell; z-scores;
RACE vs DATA within a release; replicates needed. Writes experiment-report.{md,csv,html},
experiment-samples.csv and experiment-analysis.json into --out (default experiment-report/) and
prints the summary.`,
    fails: 'never (unreadable journals are bad input: 2)',
  },
  {
    name: 'experiment report',
    usage: ['bee-bench experiment report   RUN_DIR... [--out DIR] [--alpha 0.05]'],
    summary: 'the report of one run: two releases side by side, or an A/A (one release on two nodes)',
    details: 'As compare, for the releases (or nodes) of one run; --out defaults to RUN_DIR/report.',
    fails: 'never (unreadable journals are bad input: 2)',
  },
  {
    name: 'experiment publish',
    usage: ['bee-bench experiment publish  RUN_DIR... --remote URL|PATH [--history-branch gh-pages] [--folder bench] [--workdir DIR] [--alpha 0.05]'],
    summary: "a run's analysis (or compare A B's) into the history branch, where the site's experiments page lists it",
    details: `The summary (bee-bench/experiment-summary@1: the pooled per-cell comparisons and the one-paragraph
summary) is written once under experiments/<run id>.json, immutable, with the index re-derived and
the trend site copied in the same commit; a cell measured by two or more experiments gets a trend.
Defaults: --history-branch gh-pages, --folder bench, --workdir .bee-bench/history, --alpha 0.05.`,
    fails: 'the push failed after its retries (1); unreadable journals are bad input (2)',
  },
  {
    name: 'experiment status',
    usage: ['bee-bench experiment status   [--out DIR]'],
    summary: 'what a run folder holds: units uploaded, synced, downloaded, failed and left',
    details: 'Reads the journal only (no node, no runner). Default --out experiment/.',
    fails: 'never (an unreadable journal is bad input: 2)',
  },
];

export const EXIT_CODES = `Exit codes: 0 done; 1 a runner or a case failed, the Bee node is unreachable or its batch
unusable, or (with --fail-on-regression) a regression was found or a row failed or is missing in
head; 2 bad arguments.`;

/** The commands whose name starts with `words` (["history"] gives its three subcommands). */
export function commandsFor(words: readonly string[]): CommandHelp[] {
  for (let n = Math.min(words.length, 2); n >= 1; n--) {
    const name = words.slice(0, n).join(' ');
    const exact = COMMANDS.filter((c) => c.name === name);
    if (exact.length > 0) return exact;
    const group = COMMANDS.filter((c) => c.name.startsWith(`${name} `));
    if (group.length > 0) return group;
  }
  return [];
}

/** Every command's usage lines and summary, pointing at the per-command help. */
export function globalHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'bee-bench: continuous benchmarks for the Swarm Bee API clients',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Usage:',
    ...COMMANDS.flatMap((c) => c.usage.map((l) => `  ${l}`)),
    '',
    'More on one command: bee-bench help COMMAND (or bee-bench COMMAND --help). --version prints the version.',
    '',
    EXIT_CODES,
  ].join('\n');
}

/** The help of one command (or of a group such as "history"). */
export function commandHelp(list: readonly CommandHelp[]): string {
  return list
    .flatMap((c) => [
      `bee-bench ${c.name}: ${c.summary}`,
      '',
      ...(c.examples ? ['Examples:', ...c.examples.flatMap((e) => [`  # ${e.what}`, `  ${e.command}`]), ''] : []),
      'Usage:',
      ...c.usage.map((l) => `  ${l}`),
      '',
      c.details,
      '',
      `Exit codes: 0 done; 1 ${c.fails}; 2 bad arguments or input.`,
      '',
    ])
    .join('\n')
    .trimEnd();
}
