// `bee-bench site`: the trend site over a history, served on 127.0.0.1 until interrupted.
import { siteCommand } from '../site-server.js';
import { log, num, type Values } from '../flags.js';

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
