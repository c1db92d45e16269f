// bee-bench: the local CLI. The same pipelines as the action (src/pipeline), on a laptop. This file
// parses the command line, checks its flags against the command's own list and hands it to that
// command (src/cli/commands, listed in its index.ts); the flags' parser table is src/cli/flags.ts.
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { packageRoot } from './build/paths.js';
import { SiteError } from './cli/site-server.js';
import type { CliCommand } from './cli/command.js';
import { COMMANDS, commandHelp, commandsFor, globalHelp } from './cli/help.js';
import { log, options, UsageError } from './cli/flags.js';
import { closest } from './spec/suggest.js';
import { InputError } from './spec/errors.js';
import { SelectionError } from './spec/select.js';

/** The words that open a group of commands ("history publish", "experiment run"). */
const GROUPS: ReadonlySet<string> = new Set(COMMANDS.filter((c) => c.name.includes(' ')).map((c) => c.name.split(' ')[0]!));

/** The command words typed (before any flag's value could be mistaken for one): "run", "history publish", "experiment run". */
function commandWords(positionals: readonly string[]): string[] {
  return GROUPS.has(positionals[0] ?? '') ? positionals.slice(0, 2) : positionals.slice(0, 1);
}

/** One line for a flag the parser does not know, with the closest valid flag. */
function unknownFlag(raw: string, words: readonly string[]): string {
  const typed = raw.replace(/^-+/, '').split('=')[0]!;
  const chosen = commandOf(words);
  const near = closest(typed, chosen ? [...chosen.flags] : Object.keys(options));
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

/** The command the words name, when they name exactly one. */
function commandOf(words: readonly string[]): CliCommand | undefined {
  return COMMANDS.find((c) => c.name === words.join(' '));
}

/** A known flag the chosen command does not take: one line naming the commands that do. */
function foreignFlag(name: string, chosen: CliCommand): string {
  const takers = COMMANDS.filter((c) => (c.flags as readonly string[]).includes(name)).map((c) => c.name);
  const shown = takers.length > 3 ? `${takers.slice(0, 3).join(', ')} and others` : takers.join(', ');
  return `bee-bench: ${chosen.name} takes no --${name}${takers.length ? ` (${shown} ${takers.length === 1 ? 'takes' : 'take'} it)` : ''}; see bee-bench ${chosen.name} --help`;
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
  const chosen = commandOf(commandWords(positionals));
  try {
    if (!chosen) {
      if (!GROUPS.has(command)) {
        log(unknownCommand(command));
        return 2;
      }
      const subs = commandsFor([command]).map((c) => c.name.split(' ')[1]!);
      const sub = rest[0];
      if (sub === undefined) {
        // A bare group word (`history`): what it holds, not an "unknown command" of nothing.
        process.stdout.write(`${commandHelp(commandsFor([command]))}\n`);
        log(`bee-bench ${command}: give a subcommand: ${subs.join(', ')} (e.g. bee-bench ${command} ${subs[0]} --help)`);
        return 2;
      }
      const near = closest(sub, subs);
      throw new UsageError(near ? `unknown ${command} command; did you mean "${command} ${near}"?` : `unknown ${command} command: use ${subs.join(', ')}`);
    }
    // Flags are checked per command: a flag another command takes is refused here, not ignored.
    const foreign = loose.tokens.find(
      (t) => t.kind === 'option' && t.name !== 'help' && t.name !== 'version' && !(chosen.flags as readonly string[]).includes(t.name),
    );
    if (foreign?.kind === 'option') {
      log(foreignFlag(foreign.name, chosen));
      return 2;
    }
    return await chosen.run(values, positionals.slice(chosen.name.split(' ').length));
  } catch (e) {
    // A mistyped subcommand is not echoed back in the help hint.
    const words = chosen ? chosen.name.split(' ') : commandWords(positionals).slice(0, 1);
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
