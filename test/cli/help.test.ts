// The CLI's messages as a new user meets them: per-command help, --version, a mistyped flag or
// command answered in one line with the closest valid one, a case prefix answered with its glob,
// and docs/cli.md's CLI block kept equal to the usage lines --help prints.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { COMMANDS, commandHelp, commandsFor } from '../../src/cli/help.js';
import { AB_DEFAULTS } from '../../src/verdict/index.js';
import { closest, editDistance } from '../../src/spec/suggest.js';

const cli = runCli;

const ROOT = join(import.meta.dirname, '..', '..');
const lines = (s: string) => s.trimEnd().split('\n');

describe('CLI help', () => {
  it('`run --help` and `help run` print the run command only, exit 0', async () => {
    for (const args of [
      ['run', '--help'],
      ['help', 'run'],
      ['run', '-h'],
    ]) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.stdout).toMatch(/^bee-bench run: /);
      expect(r.stdout).toContain('--case takes an id or a glob');
      expect(r.stdout).not.toContain('bee-bench ab ');
    }
  });

  it('`help history` and `history --help` print the three history commands', async () => {
    for (const args of [
      ['help', 'history'],
      ['history', '--help'],
    ]) {
      const r = await cli(args);
      expect(r.code).toBe(0);
      expect(r.stdout.match(/^bee-bench history \S+: /gm)).toEqual([
        'bee-bench history publish: ',
        'bee-bench history import-gab: ',
        'bee-bench history export-gab: ',
      ]);
    }
    expect((await cli(['history', 'publish', '--help'])).stdout).not.toContain('import-gab');
  });

  it('the global help lists every command of the table, each with its usage', async () => {
    const r = await cli(['--help']);
    expect(r.code).toBe(0);
    for (const c of COMMANDS) {
      expect(r.stdout).toContain(c.summary);
      for (const l of c.usage) expect(r.stdout).toContain(l);
    }
    expect(r.stdout).toContain('bee-bench help COMMAND');
  });

  it('--version prints the package version, exit 0', async () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const r = await cli(['--version']);
    expect(r).toMatchObject({ code: 0, stdout: `bee-bench ${pkg.version}\n`, stderr: '' });
  });
});

describe('CLI errors in one line', () => {
  it('a mistyped flag names the closest valid flag and the command help', async () => {
    const r = await cli(['run', '--runners', 'js']);
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toEqual(['bee-bench: unknown flag --runners (did you mean --runner?); see bee-bench run --help']);
    expect(r.stdout).toBe('');
    expect(lines((await cli(['ab', '--thresold', '0.1'])).stderr)).toEqual([
      'bee-bench: unknown flag --thresold (did you mean --threshold?); see bee-bench ab --help',
    ]);
  });

  it("an unknown flag with nothing close says so without Node's parser advice", async () => {
    const r = await cli(['--bogus']);
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toEqual(['bee-bench: unknown flag --bogus; see bee-bench --help']);
  });

  it('a flag without its value is one line', async () => {
    const r = await cli(['run', '--runner']);
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toEqual(['bee-bench: --runner needs a value; see bee-bench run --help']);
  });

  it('a mistyped command names the closest command', async () => {
    const r = await cli(['rnu']);
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toEqual(['bee-bench: unknown command "rnu" (did you mean "run"?); see bee-bench --help']);
    expect(lines((await cli(['help', 'nope'])).stderr)).toEqual(['bee-bench: unknown command "nope"; see bee-bench --help']);
  });

  it('a mistyped history command names the closest one; -v prints the version', async () => {
    const r = await cli(['history', 'pubish']);
    expect(r.code).toBe(2);
    // The hint names the fix, not the typo back.
    expect(lines(r.stderr)).toEqual(['bee-bench: unknown history command; did you mean "history publish"?; see bee-bench history --help']);
    expect(r.stderr).not.toContain('pubish');
    const v = await cli(['-v']);
    expect(v.code).toBe(0);
    expect(v.stdout).toMatch(/^bee-bench \d+\.\d+\.\d+\n$/);
  });

  it('a mistyped --measure stops run in one line, before the Go module proxy is asked about bee-go', async () => {
    const before = process.env.BEE_GO_PATH;
    delete process.env.BEE_GO_PATH;
    try {
      const r = await cli(['run', '--runner', 'go', '--measure', 'wal']);
      expect(r.code).toBe(2);
      expect(lines(r.stderr)).toEqual([
        'bee-bench: --measure wal: a comma list of wall, instructions, allocations, cycles (both = wall,instructions); did you mean "wall"?; see bee-bench run --help',
      ]);
    } finally {
      if (before !== undefined) process.env.BEE_GO_PATH = before;
    }
  });

  it('a runner named twice is planned once', async () => {
    const once = await cli(['plan', '--shards', '2', '--runner', 'rs', '--case', 'cpu.keccak.*']);
    const twice = await cli(['plan', '--shards', '2', '--runner', 'rs', '--runner', 'rs,rs', '--case', 'cpu.keccak.*']);
    expect(twice.code).toBe(0);
    expect(twice.stdout).toBe(once.stdout);
  });

  it('a case id prefix without a wildcard suggests the glob, before anything is built', async () => {
    const r = await cli(['run', '--runner', 'rs', '--case', 'cpu.keccak']);
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toEqual([
      'bee-bench: case glob "cpu.keccak" matches no case in the spec; did you mean "cpu.keccak.*" (3 cases: cpu.keccak.chunk-hash, cpu.keccak.parallel, cpu.keccak.bulk)?; see bee-bench run --help',
    ]);
  });

  it('a bare history lists its subcommands; a mistyped whole case id names the closest id', async () => {
    const h = await cli(['history']);
    expect(h.code).toBe(2);
    expect(h.stdout).toContain('history publish');
    expect(lines(h.stderr)).toEqual(['bee-bench history: give a subcommand: publish, import-gab, export-gab (e.g. bee-bench history publish --help)']);
    expect(h.stderr).not.toContain('unknown');
    const r = await cli(['run', '--runner', 'rs', '--case', 'cpu.keccak.bulkk']);
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toEqual([
      'bee-bench: case glob "cpu.keccak.bulkk" matches no case in the spec; did you mean "cpu.keccak.bulk"?; see bee-bench run --help',
    ]);
  });

  it('closest() prefers a prefix, else the nearest name within reach', () => {
    expect(closest('runners', ['runner', 'rounds'])).toBe('runner');
    expect(closest('treshold', ['threshold', 'alpha'])).toBe('threshold');
    expect(closest('zzzzzz', ['threshold', 'alpha'])).toBeUndefined();
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });
});

describe("each command's help", () => {
  it('names its defaults, and its exit codes speak of a Bee node only where it takes one', () => {
    for (const c of COMMANDS) {
      const help = commandHelp([c]);
      const flags = c.usage.join(' ');
      if (/--(profile|rounds|port|history-branch|cache|runner)\b/.test(flags)) expect(help, c.name).toMatch(/[Dd]efault/);
      const exit = help.split('\n').at(-1)!;
      expect(exit, c.name).toMatch(/^Exit codes: 0 done; 1 .+; 2 bad arguments or input\.$/);
      expect(/Bee node/.test(exit), c.name).toBe(flags.includes('[BEE]'));
    }
    expect(commandHelp(commandsFor(['ab']))).toContain(
      `--rounds ${AB_DEFAULTS.rounds}, --alpha ${AB_DEFAULTS.alpha}, --threshold ${AB_DEFAULTS.threshold} (2%)`,
    );
  });
});

describe('docs/cli.md and --help agree', () => {
  it("ab --help and profile --help open with worked examples whose flags are the command's own", async () => {
    for (const name of ['ab', 'profile']) {
      const r = await cli([name, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout.split('\n').slice(0, 3), name).toEqual([expect.stringMatching(new RegExp(`^bee-bench ${name}: `)), '', 'Examples:']);
      const c = commandsFor([name])[0]!;
      expect(c.examples!.length).toBeGreaterThanOrEqual(2);
      for (const e of c.examples!) {
        expect(r.stdout).toContain(`  # ${e.what}\n  ${e.command}\n`);
        expect(e.command.startsWith(`bee-bench ${name} `)).toBe(true);
        for (const flag of e.command.match(/--[a-z-]+/g) ?? []) expect(c.usage.join(' '), `${name}: ${flag}`).toContain(flag);
      }
    }
    const ab = commandHelp(commandsFor(['ab']));
    expect(ab).toContain('--measure wall,instructions --profile-case');
    expect(ab).toMatch(/# a PR's base against its head/);
    expect(ab).toMatch(/# a node A\/B/);
  });

  it("docs/cli.md's CLI block holds every usage line, prefixed `npx `", () => {
    const page = readFileSync(join(ROOT, 'docs', 'cli.md'), 'utf8');
    const missing = COMMANDS.flatMap((c) => c.usage).filter((l) => !page.includes(l.startsWith('bee-bench ') ? `npx ${l}` : `    ${l}`));
    expect(missing).toEqual([]);
    // Commands in README's and docs/cli.md's prose are what a clone can type.
    for (const text of [page, readFileSync(join(ROOT, 'README.md'), 'utf8')]) expect(text.match(/^bee-bench \w/gm) ?? []).toEqual([]);
  });
});

describe('flags per command', () => {
  const CLIENTS = ['js-client', 'go-client', 'rs-client'];
  /** The flags a help text names: --name, and --<runner>-client for the three client flags. */
  const named = (text: string) =>
    new Set([...[...text.matchAll(/--([a-z][a-z-]*[a-z])/g)].map((m) => m[1]!), ...(text.includes('--<runner>-client') ? CLIENTS : [])]);

  it('every flag a command takes is in its help, and every flag of its usage lines is one it takes', () => {
    for (const c of COMMANDS) {
      const help = named(commandHelp([c]));
      expect(
        c.flags.filter((f) => !help.has(f)),
        c.name,
      ).toEqual([]);
      const usage = named(c.usage.join('\n'));
      expect(
        [...usage].filter((f) => !(c.flags as readonly string[]).includes(f)),
        c.name,
      ).toEqual([]);
    }
  });

  it('a flag of another command is refused in one line that names the commands taking it', async () => {
    const r = await cli(['run', '--rounds', '5']);
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toEqual(['bee-bench: run takes no --rounds (ab, bisect take it); see bee-bench run --help']);
    expect(lines((await cli(['experiment', 'status', '--remote', 'x'])).stderr)).toEqual([
      'bee-bench: experiment status takes no --remote (history publish, history import-gab, site and others take it); see bee-bench experiment status --help',
    ]);
    // A mistyped flag is matched against the command's own flags.
    expect(lines((await cli(['site', '--hisotry', 'x'])).stderr)).toEqual([
      'bee-bench: unknown flag --hisotry (did you mean --history?); see bee-bench site --help',
    ]);
  });

  it('dispatch and help come from the same records: each command word reaches its own help', async () => {
    for (const c of COMMANDS) {
      const r = await cli([...c.name.split(' '), '--help']);
      expect(r.code, c.name).toBe(0);
      expect(r.stdout.startsWith(`bee-bench ${c.name}: ${c.summary}`), c.name).toBe(true);
    }
  });
});

describe('the run size is --size; --profile is its former name', () => {
  it('--size and --profile choose the same run size; both at once is refused; the help names the former name', async () => {
    const size = async (args: string[]) =>
      (JSON.parse((await cli(['plan', '--runner', 'rs', '--case', 'cpu.harness.noop', ...args])).stdout) as { profile: string }).profile;
    expect(await size(['--size', 'full'])).toBe('full');
    expect(await size(['--profile', 'full'])).toBe('full');
    expect(await size([])).toBe('quick');
    const both = await cli(['plan', '--runner', 'rs', '--size', 'full', '--profile', 'quick']);
    expect(both.code).toBe(2);
    expect(lines(both.stderr)).toEqual(['bee-bench: --profile quick: the former name of --size, which is given too: keep --size; see bee-bench plan --help']);
    expect((await cli(['run', '--help'])).stdout).toContain('Former names, still taken: --profile (now --size).');
  });
});
