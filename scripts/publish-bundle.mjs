#!/usr/bin/env node
// Writes publish.json (bee-bench/action-publish@1, src/action/publish-bundle.ts) for the nightly's
// publish job: the result files of a CLI run and the commit of this checkout they are recorded
// under. Runs in the read-only measure job; the publish job validates everything it holds.
// Usage: node scripts/publish-bundle.mjs RESULTS_DIR OUT_FILE
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir, out] = process.argv.slice(2);
if (!dir || !out) {
  console.error('usage: node scripts/publish-bundle.mjs RESULTS_DIR OUT_FILE');
  process.exit(2);
}
const results = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')));
if (results.length === 0) {
  console.error(`${dir}: no result files`);
  process.exit(1);
}
const [sha, author, timestamp, ...message] = execFileSync('git', ['log', '-1', '--format=%H%n%an%n%cI%n%B'], { encoding: 'utf8' }).trimEnd().split('\n');
const bundle = {
  schema: 'bee-bench/action-publish@1',
  client: results[0].runner,
  event: process.env.GITHUB_EVENT_NAME ?? 'local',
  ref: process.env.GITHUB_REF_NAME ?? '',
  head_sha: sha,
  commit: { sha, message: message.join('\n').trim(), author, timestamp },
  results,
};
writeFileSync(out, `${JSON.stringify(bundle)}\n`);
console.log(`${out}: ${results.length} result(s) for ${sha.slice(0, 12)}`);
