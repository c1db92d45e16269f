#!/usr/bin/env node
// A stand-in for the docker CLI (this machine has no Docker engine) covering what a Bee dev node
// needs: `run -d`, `rm --force`, `logs`. It parses argv the way docker does (options, then the image,
// then the container's own arguments) and runs the "container" as the fake bee on the published
// loopback port. Test-only option first: --fake-state=DIR (docker.jsonl records every call).
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const state = args.shift().replace(/^--fake-state=/, '');
appendFileSync(join(state, 'docker.jsonl'), `${JSON.stringify({ argv: args })}\n`);
const fail = (msg, code = 125) => {
  process.stderr.write(`docker: ${msg}\n`);
  process.exit(code);
};
const pidFile = (name) => join(state, `${name}.pid`);
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const [command, ...rest] = args;
if (command === 'run') {
  const opts = {};
  const withValue = new Set(['--name', '--label', '--publish', '-p']);
  let i = 0;
  for (; i < rest.length && rest[i].startsWith('-'); i++) {
    if (withValue.has(rest[i])) opts[rest[i]] = rest[++i];
    else if (rest[i] === '-d' || rest[i] === '--rm') opts[rest[i]] = true;
    else fail(`unknown flag: ${rest[i]}`);
  }
  const [image, ...containerArgs] = rest.slice(i);
  if (!opts['-d']) fail('this fake only runs detached containers');
  if (image !== 'ethersphere/bee:2.8.0') fail(`Unable to find image '${image}' locally`);
  const published = /^127\.0\.0\.1:([0-9]+):1633$/.exec(opts['--publish'] ?? '');
  if (!published) fail(`publish ${opts['--publish']}: expected 127.0.0.1:PORT:1633`);
  // The image's entrypoint is `bee`; inside the container the API listens on :1633, which Docker
  // maps to the published port. Without a container network the fake bee listens there directly.
  const beeArgs = containerArgs.map((a) => (a === '--api-addr=:1633' ? `--api-addr=127.0.0.1:${published[1]}` : a));
  const log = openSync(join(state, `${opts['--name']}.log`), 'a');
  const bee = spawn(
    process.execPath,
    [join(dirname(fileURLToPath(import.meta.url)), 'fake-bee.mjs'), `--fake-record=${join(state, 'bee.jsonl')}`, ...beeArgs],
    { detached: true, stdio: ['ignore', log, log] },
  );
  writeFileSync(pidFile(opts['--name']), String(bee.pid));
  bee.unref();
  process.stdout.write(`${'c0ffee'.repeat(10)}abcd\n`);
} else if (command === 'rm') {
  const name = rest.at(-1);
  if (!existsSync(pidFile(name))) fail(`Error response from daemon: No such container: ${name}`, 1);
  const pid = Number(readFileSync(pidFile(name), 'utf8'));
  if (alive(pid)) process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + 10_000;
  while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  if (alive(pid)) process.kill(pid, 'SIGKILL');
  rmSync(pidFile(name));
  process.stdout.write(`${name}\n`);
} else if (command === 'logs') {
  const name = rest.at(-1);
  const file = join(state, `${name}.log`);
  if (!existsSync(file)) fail(`Error response from daemon: No such container: ${name}`, 1);
  process.stdout.write(readFileSync(file, 'utf8'));
} else {
  fail(`unsupported command ${command}`);
}
