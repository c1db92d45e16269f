import { readFileSync, writeFileSync } from 'node:fs';
import { COMMANDS } from './src/cli/help.js';
const page = readFileSync('docs/cli.md', 'utf8').split('\n');
const block = COMMANDS.flatMap((c) => c.usage.map((l) => (l.startsWith('bee-bench ') ? `npx ${l}` : `    ${l}`)));
writeFileSync('docs/cli.md', [...page.slice(0, 9), ...block, ...page.slice(33)].join('\n'));
