// What a CLI command is: the words typed for it, its help, the flags it takes and what it runs. Each
// command describes itself once, in its file under src/cli/commands; the dispatch, the global and
// per-command help, docs/cli.md's CLI block and the per-command flag check all read that record.
import type { FlagName, Values } from './flags.js';

export interface CliCommand {
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
  /** The flags it takes (besides --help and --version); any other is refused, naming the commands that take it. */
  flags: readonly FlagName[];
  /** Runs it on the parsed flags and the words after its name; resolves to the exit code. */
  run: (v: Values, args: string[]) => number | Promise<number>;
}
