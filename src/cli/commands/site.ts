// `bee-bench site`: the trend site over a history, served on 127.0.0.1 until interrupted.
import { siteCommand } from '../site-server.js';
import { log, num, type Values } from '../flags.js';
import type { CliCommand } from '../command.js';

export function site(v: Values): Promise<number> {
  return siteCommand({
    history: v.history,
    remote: v.remote,
    branch: v['history-branch'],
    folder: v.folder,
    port: num(v.port, 'port', 8080, (n) => Number.isInteger(n) && n >= 0 && n < 65536, 'a TCP port, 0 for any free one'),
    log,
  });
}

/** `bee-bench site`: its help, its flags and what it runs. */
export const siteCli: CliCommand = {
  name: 'site',
  usage: ['bee-bench site    --history DIR | --remote URL|PATH [--history-branch gh-pages] [--folder bench] [--port 8080]'],
  summary: 'serve the trend site over a history on 127.0.0.1 and print its URL',
  details: `--history DIR is a history folder (the one history publish writes: bench/ of the history branch);
--remote clones the history branch (default gh-pages) of a repository and serves its --folder
(default bench). The page is this version's site (pages/dist); the data is the history's. Listens
on 127.0.0.1 only, port --port (default 8080; 0 picks a free one), until Ctrl-C. Browsers do not
run the page's script when it is opened as a file: serve it with this command instead.`,
  fails: 'the server could not start (the port is in use, say)',
  flags: ['history', 'remote', 'history-branch', 'folder', 'port'],
  run: site,
};
