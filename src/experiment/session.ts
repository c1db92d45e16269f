// One sitting of work on a run folder: opens (or starts) its journal, makes the nodes ready and
// starts one runner ops process per node. A new run writes the run row (the design with its seed
// and bought batch ids, the runner and client, each node's version); a later sitting (a resume
// after a kill, or a phase run hours later) reads the design from the journal and appends a
// resume row, so every phase works from the run folder alone.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../build/paths.js';
import type { RunnerCommand } from '../build/builder.js';
import { InputError } from '../spec/errors.js';
import { describeCost, designCost } from './cost.js';
import { OpsRunner } from './driver.js';
import { JournalWriter, now } from './journal.js';
import { readyNodes, type ReadyNode } from './nodes.js';
import { runOrder, type Unit } from './order.js';
import { JOURNAL_SCHEMA, type Design } from './schema.js';

export type RunnerName = 'js' | 'go' | 'rs';

export interface Session {
  dir: string;
  journal: JournalWriter;
  design: Design;
  seed: string;
  units: Unit[];
  nodes: Map<string, ReadyNode>;
  runners: Map<string, OpsRunner>;
  log: (line: string) => void;
}

export interface OpenOptions {
  dir: string;
  /** Required for a new run; for an existing one it must say the same as the journal (or be absent). */
  design?: Design;
  runner: RunnerName;
  command: RunnerCommand;
  log: (line: string) => void;
  readyTimeoutMs?: number;
}

function beeBenchVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** The design's factors without what a run fills in (seed, bought batches): two designs are the same study when these agree. */
const factors = (d: Design) => JSON.stringify({ ...d, seed: undefined, nodes: d.nodes.map((n) => ({ ...n, batch_id: undefined })) });

export async function openSession(o: OpenOptions): Promise<Session> {
  mkdirSync(o.dir, { recursive: true });
  const journal = await JournalWriter.open(o.dir);
  try {
    const prior = journal.state.run;
    if (journal.state.torn !== undefined)
      o.log(
        `experiment: the journal's last line was torn (the run was killed while writing it): cut off and kept in journal.torn: ${journal.state.torn.slice(0, 120)}`,
      );
    if (!prior && journal.state.rows > 0) throw new InputError(journal.file, ['rows without a run row'], 'start a new run folder');
    if (prior) {
      if (o.design && factors(o.design) !== factors(prior.design))
        throw new InputError(
          o.dir,
          ['already holds a run of another design'],
          'continue it without a design (its own is in the journal) or use a new --out folder',
        );
      if (prior.runner !== o.runner) throw new InputError(o.dir, [`a run through runner ${prior.runner}`], `continue it with --runner ${prior.runner}`);
    } else if (!o.design) throw new InputError(o.dir, ['no run here yet'], 'give a design (--design FILE or the design flags)');
    const base = prior?.design ?? o.design!;
    const seed = prior?.seed ?? base.seed ?? randomBytes(32).toString('hex');
    const nodes = await readyNodes(base, o.log);
    const design: Design = { ...base, seed, nodes: nodes.map(({ label, release, url, batch_id }) => ({ label, release, url, batch_id })) };
    const runners = new Map<string, OpsRunner>();
    for (const n of nodes)
      runners.set(
        n.label,
        new OpsRunner(o.command, { runner: o.runner, node: n.label, beeUrl: n.url, batchId: n.batch_id, log: o.log, readyTimeoutMs: o.readyTimeoutMs }),
      );
    const first = await runners.get(nodes[0]!.label)!.start();
    if (prior) {
      if (first.client.version !== prior.client.version || first.client.name !== prior.client.name)
        o.log(
          `experiment: warning: this run began with ${prior.client.name} ${prior.client.version}, the runner now drives ${first.client.name} ${first.client.version}`,
        );
      journal.append({ type: 'resume', at: now() });
      o.log(`experiment: continuing ${o.dir} (${journal.state.rows - 1} rows journaled)`);
    } else {
      o.log(`experiment: ${describeCost(designCost(design))}`);
      journal.append({
        type: 'run',
        schema: JOURNAL_SCHEMA,
        run_id: `${new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '')}-${seed.slice(0, 8)}`,
        created_at: now(),
        design,
        seed,
        runner: o.runner,
        client: first.client,
        nodes: nodes.map((n) => ({ label: n.label, release: n.release, url: n.url, version: n.version })),
        bee_bench: beeBenchVersion(),
      });
    }
    return { dir: o.dir, journal, design, seed, units: runOrder(design, seed), nodes: new Map(nodes.map((n) => [n.label, n])), runners, log: o.log };
  } catch (e) {
    journal.close();
    throw e;
  }
}

export async function closeSession(s: Session): Promise<void> {
  await Promise.all([...s.runners.values()].map((r) => r.close()));
  s.journal.close();
}
