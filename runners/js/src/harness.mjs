// The main thread of a run: walks the plan, runs each unit in its own worker thread
// (case-worker.mjs) under the unit's timeout, measures its peak RSS, and rewrites the result
// file after every case. A case that hangs, throws or leaks a rejection is recorded as failed
// with the samples it had; the next case still runs.
import { Worker } from 'node:worker_threads';
import { ALLOC_WORKER_LIMITS } from './alloc.mjs';
import { CASES } from './cases/index.mjs';
import { describeError } from './errors.mjs';
import { settleGc } from './gc.mjs';
import { caseRecord, writeResult } from './result.mjs';
import { startPeakRss } from './rss.mjs';

export const NO_NODE = 'no Bee node given (--bee-url and --batch-id)';
const SLOW_ITERATION_NS = 1e9;

/**
 * Each call to the node may wait half the unit's budget for an answer, so a frozen node fails the
 * case with "no answer in N s" (naming the call) before the unit's timeout cuts it off.
 */
export const callTimeoutS = (timeoutS) => timeoutS / 2;

/**
 * Runs every plan unit in order, appending one record per unit to result.cases and rewriting
 * `out` after each. `options`: {modes, shared, node, fixturesDir, cpus, log}.
 */
export async function runPlan(units, result, out, options) {
  const { log } = options;
  writeResult(out, result);
  for (const [k, unit] of units.entries()) {
    log(`[${k + 1}/${units.length}] ${unit.id} ${unit.param.label} ...`);
    let record;
    if (!CASES[unit.id]) record = withStatus(caseRecord(unit), 'skipped', 'not implemented by the js runner');
    else if (unit.kind === 'net' && !options.node) record = withStatus(caseRecord(unit), 'skipped', NO_NODE);
    else record = await runCase(unit, options);
    settleGc();
    result.cases.push(record);
    writeResult(out, result);
    log(`  ${outcome(record)}`);
  }
  result.finished_at = new Date().toISOString();
  writeResult(out, result);
  log(`wrote ${out}`);
}

/** One unit in a fresh worker; resolves with its record, whatever happens in there. */
function runCase(unit, options) {
  const { iters, timeout_s: timeoutS } = unit;
  const record = caseRecord(unit);
  const allocs = options.modes.allocs && unit.kind === 'cpu';
  if (allocs) record.alloc_bytes = [];
  // A cycles process's worker holds its messages, its phases among them, until its case ends (case-worker.mjs).
  const cacheSim = options.modes.count && options.modes.cacheSim && unit.kind === 'cpu';
  let phase = cacheSim ? 'a cycles process, whose case reports its phases when it ends' : 'start';
  let digest;

  return new Promise((resolve) => {
    const rss = startPeakRss();
    const worker = new Worker(new URL('./case-worker.mjs', import.meta.url), {
      workerData: {
        unit,
        paceFd: options.modes.paceFd,
        count: options.modes.count && unit.kind === 'cpu',
        cacheSim,
        allocs,
        shared: options.shared,
        options: {
          node: options.node && { ...options.node, callTimeoutS: callTimeoutS(timeoutS) },
          fixturesDir: options.fixturesDir,
          cpus: options.cpus,
        },
      },
      ...(options.modes.allocs ? { resourceLimits: ALLOC_WORKER_LIMITS } : {}),
    });
    let finished = false;
    const finish = async (status, detail) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      await worker.terminate();
      record.peak_rss_bytes = rss.stop();
      if (digest !== undefined) record.digest = digest;
      resolve(withStatus(record, status, detail));
    };
    const timer = setTimeout(() => finish('failed', `timed out after ${timeoutS} s (in ${phase})`), timeoutS * 1000);

    worker.on('message', (m) => {
      switch (m.t) {
        case 'phase':
          phase = m.phase;
          break;
        case 'digest':
          digest = m.hex;
          break;
        case 'warmup':
          record.warmup = m.n;
          break;
        case 'sample':
          record.samples_ns.push(m.wall);
          record.cpu_ns.push(m.cpu);
          record.alloc_bytes?.push(m.bytes);
          if (m.wall > SLOW_ITERATION_NS || options.modes.count)
            options.log(`    iteration ${record.samples_ns.length}/${iters}: ${(m.wall / 1e9).toFixed(2)} s`);
          break;
        case 'done':
          finish('ok');
          break;
        case 'skip':
          finish('skipped', m.reason);
          break;
        case 'error':
          finish('failed', `${m.message} (in ${phase})`);
          break;
      }
    });
    worker.on('error', (err) => finish('failed', `${describeError(err)} (in ${phase})`));
    worker.on('exit', (code) => finish('failed', `${exitReason(code)} (in ${phase})`));
  });
}

/** Why a case worker ended without reporting. */
function exitReason(code) {
  // 13: Node's "unsettled top-level await": the event loop emptied with the case still waiting.
  if (code === 13) return 'the case awaited a promise that can never settle (its event loop emptied)';
  return `the case worker exited with code ${code} before finishing (process.exit in the case?)`;
}

/** The final record, fields in contract order; skipped/failed carry the reason/error. */
function withStatus(r, status, detail) {
  const skippedCase = status === 'skipped';
  return {
    id: r.id,
    kind: r.kind,
    param: r.param,
    status,
    ...(skippedCase ? { skip_reason: detail } : {}),
    ...(status === 'failed' ? { error: detail } : {}),
    warmup: skippedCase ? 0 : r.warmup,
    samples_ns: skippedCase ? [] : r.samples_ns,
    cpu_ns: skippedCase ? [] : r.cpu_ns,
    ...(!skippedCase && r.alloc_bytes ? { alloc_bytes: r.alloc_bytes } : {}),
    peak_rss_bytes: r.peak_rss_bytes,
    work: r.work,
    ...(!skippedCase && r.digest !== undefined ? { digest: r.digest } : {}),
  };
}

function outcome(r) {
  if (r.status === 'skipped') return `skipped: ${r.skip_reason}`;
  if (r.status === 'failed') return `FAILED: ${r.error} (${r.samples_ns.length} samples kept)`;
  const sorted = [...r.samples_ns].sort((a, b) => a - b);
  // The median as the engine's report takes it (mean of the two middles), to the ns under 1 ms.
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  const ms = (ns) => (ns < 1e6 ? `${(ns / 1e3).toFixed(3)} µs` : `${(ns / 1e6).toFixed(2)} ms`);
  const rss = r.peak_rss_bytes === null ? '' : `, peak RSS ${(r.peak_rss_bytes / 2 ** 20).toFixed(0)} MiB`;
  const digest = r.digest ? `, digest ${r.digest.slice(0, 12)}` : '';
  return `ok: median ${ms(median)}, min ${ms(sorted[0])} over ${sorted.length} iterations${rss}${digest}`;
}
