// The CLI's help, derived from the commands' own records (src/cli/commands/index.ts): the global
// help lists every command's summary and usage, `bee-bench COMMAND --help` one command's (or a
// group's, such as "history"); docs/cli.md's CLI block is kept equal to the same lines.
import type { CliCommand } from './command.js';
import { COMMANDS } from './commands/index.js';
import { FORMER_NAMES } from './flags.js';

export { COMMANDS };

export const EXIT_CODES = `Exit codes: 0 done; 1 a runner or a case failed, the Bee node is unreachable or its batch
unusable, or (with --fail-on-regression) a regression was found or a row failed or is missing in
head; 2 bad arguments.`;

/** The commands whose name starts with `words` (["history"] gives its three subcommands). */
export function commandsFor(words: readonly string[]): CliCommand[] {
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

/** A line naming the former names a command still takes, when it takes any. */
function formerNames(c: CliCommand): string[] {
  const kept = c.flags.flatMap((f) => {
    const now = FORMER_NAMES[f];
    return now ? [`--${f} (now --${now})`] : [];
  });
  return kept.length > 0 ? [`Former names, still taken: ${kept.join(', ')}.`] : [];
}

/** The help of one command (or of a group such as "history"). */
export function commandHelp(list: readonly CliCommand[]): string {
  return list
    .flatMap((c) => [
      `bee-bench ${c.name}: ${c.summary}`,
      '',
      ...(c.examples ? ['Examples:', ...c.examples.flatMap((e) => [`  # ${e.what}`, `  ${e.command}`]), ''] : []),
      'Usage:',
      ...c.usage.map((l) => `  ${l}`),
      '',
      c.details,
      ...formerNames(c),
      '',
      `Exit codes: 0 done; 1 ${c.fails}; 2 bad arguments or input.`,
      '',
    ])
    .join('\n')
    .trimEnd();
}
