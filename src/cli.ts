// bee-bench: the local CLI. The same pipelines as the action (src/pipeline), on a laptop. This file
// parses the command line and hands it to one command of src/cli/commands; the flags live in
// src/cli/flags.ts, the help in src/cli/help.ts.
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { packageRoot } from './build/paths.js';
import { ab } from './cli/commands/ab.js';
import { bisect } from './cli/commands/bisect.js';
import { build } from './cli/commands/build.js';
import { compare } from './cli/commands/compare.js';
import { experiment } from './cli/commands/experiment.js';
import { historyExportGab } from './cli/commands/history-export-gab.js';
import { historyImportGab } from './cli/commands/history-import-gab.js';
import { historyPublish } from './cli/commands/history-publish.js';
import { merge } from './cli/commands/merge.js';
import { plan } from './cli/commands/plan.js';
import { profile } from './cli/commands/profile.js';
import { report } from './cli/commands/report.js';
import { run } from './cli/commands/run.js';
import { site } from './cli/commands/site.js';
import { SiteError } from './cli/site-server.js';
import { COMMANDS, commandHelp, commandsFor, globalHelp } from './cli/help.js';
import { log, options, UsageError, type Command } from './cli/flags.js';
import { closest } from './spec/suggest.js';
import { InputError } from './spec/errors.js';
import { SelectionError } from './spec/select.js';

/** Every command by the word typed for it (src/cli/help.ts has one entry for each). */
const COMMAND_TABLE: ReadonlyMap<string, Command> = new Map<string, Command>([
  ['run', run],
  ['plan', plan],
  ['merge', merge],
  ['build', build],
  ['ab', ab],
  ['bisect', bisect],
  ['profile', profile],
  ['report', report],
  ['compare', compare],
  ['site', site],
  ['experiment', experiment],
]);
/** `history SUB`: the history branch's commands. */
const HISTORY_TABLE: ReadonlyMap<string, Command> = new Map<string, Command>([
  ['publish', historyPublish],
  ['import-gab', historyImportGab],
  ['export-gab', historyExportGab],
]);

/** The command words typed (before any flag's value could be mistaken for one): "run", "history publish", "experiment run". */
function commandWords(positionals: readonly string[]): string[] {
  return positionals[0] === 'history' || positionals[0] === 'experiment' ? positionals.slice(0, 2) : positionals.slice(0, 1);
}

/** One line for a flag the parser does not know, with the closest valid flag. */
function unknownFlag(raw: string, words: readonly string[]): string {
  const typed = raw.replace(/^-+/, '').split('=')[0]!;
  const near = closest(typed, Object.keys(options));
  const help = words.length > 0 && commandsFor(words).length > 0 ? `bee-bench ${words.join(' ')} --help` : 'bee-bench --help';
  return `bee-bench: unknown flag ${raw.split('=')[0]}${near ? ` (did you mean --${near}?)` : ''}; see ${help}`;
}

/** Node's parser messages, for the errors left once unknown flags are caught, in one line each. */
function parserMessage(e: Error & { code?: string }, words: readonly string[]): string {
  const help = words.length > 0 ? `bee-bench ${words.join(' ')} --help` : 'bee-bench --help';
  const missing = /Option '(-\w, )?(--[\w-]+) <value>' argument missing/.exec(e.message);
  if (missing) return `bee-bench: ${missing[2]} needs a value; see ${help}`;
  const noValue = /Option '(--[\w-]+)' does not take an argument/.exec(e.message);
  if (noValue) return `bee-bench: ${noValue[1]} takes no value; see ${help}`;
  return `bee-bench: ${e.message.split('\n')[0]}; see ${help}`;
}

function version(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

function unknownCommand(typed: string): string {
  const names = [...new Set(COMMANDS.map((c) => c.name.split(' ')[0]!)), 'help'];
  const near = closest(typed.split(' ')[0]!, names);
  return `bee-bench: unknown command "${typed}"${near ? ` (did you mean "${near}"?)` : ''}; see bee-bench --help`;
}

export async function main(args: string[]): Promise<number> {
  // -v is --version too (-V is the parser's short flag): the spelling most tools take.
  const argv = args.map((a) => (a === '-v' ? '-V' : a));
  // A lenient pass first: unknown flags are answered in one line naming the closest known one.
  const loose = parseArgs({ args: argv, options, allowPositionals: true, strict: false, tokens: true });
  const words = commandWords(loose.positionals);
  const unknown = loose.tokens.find((t) => t.kind === 'option' && !(t.name in options));
  if (unknown?.kind === 'option') {
    log(unknownFlag(unknown.rawName, words));
    return 2;
  }
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (e) {
    log(parserMessage(e as Error, words));
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.version) {
    process.stdout.write(`bee-bench ${version()}\n`);
    return 0;
  }
  if (command === 'help' || values.help || !command) {
    const about = command === 'help' ? rest : values.help ? positionals : [];
    if (about.length === 0) {
      process.stdout.write(`${globalHelp()}\n`);
      return command || values.help ? 0 : 2;
    }
    const list = commandsFor(about);
    if (list.length === 0) {
      log(unknownCommand(about.join(' ')));
      return 2;
    }
    process.stdout.write(`${commandHelp(list)}\n`);
    return 0;
  }
  try {
    if (command === 'history') {
      const [sub, ...paths] = rest;
      const historyCommand = sub === undefined ? undefined : HISTORY_TABLE.get(sub);
      if (!historyCommand) {
        const subs = [...HISTORY_TABLE.keys()];
        if (sub === undefined) {
          // A bare `history`: what it holds, not an "unknown command" of nothing.
          process.stdout.write(`${commandHelp(commandsFor(['history']))}\n`);
          log(`bee-bench history: give a subcommand: ${subs.join(', ')} (e.g. bee-bench history publish --help)`);
          return 2;
        }
        const near = closest(sub, subs);
        throw new UsageError(near ? `unknown history command; did you mean "history ${near}"?` : `unknown history command: use ${subs.join(', ')}`);
      }
      return await historyCommand(values, paths);
    }
    const chosen = COMMAND_TABLE.get(command);
    if (!chosen) {
      log(unknownCommand(command));
      return 2;
    }
    return await chosen(values, rest);
  } catch (e) {
    // A mistyped history subcommand is not echoed back in the help hint.
    const words = positionals[0] === 'history' && !HISTORY_TABLE.has(positionals[1] ?? '') ? ['history'] : commandWords(positionals);
    const help = commandsFor(words).length > 0 ? `bee-bench ${words.join(' ')} --help` : 'bee-bench --help';
    if (e instanceof UsageError || e instanceof SelectionError) {
      log(`bee-bench: ${e.message}; see ${help}`);
      return 2;
    }
    if (e instanceof InputError || e instanceof SiteError) {
      log(`bee-bench: ${e.message}`);
      return 2;
    }
    log(`bee-bench: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}

// Run when executed (node dist/cli.js, tsx src/cli.ts), not when imported by tests.
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (e: unknown) => {
      // main answers every error itself; one that still escapes is a bug, reported, not swallowed.
      process.stderr.write(`bee-bench: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
