// What a run folder holds, read from its journal alone: units uploaded, synced, downloaded, the
// failures so far and what is left; printed by `bee-bench experiment status`.
import { cellsOf } from './design.js';
import { loadJournal } from './journal.js';
import { runOrder } from './order.js';

export interface RunStatus {
  runId: string;
  runner: string;
  client: string;
  nodes: string[];
  units: number;
  uploaded: number;
  uploadFailed: number;
  synced: number;
  ceilingReached: number;
  downloaded: number;
  downloadFailed: number;
  left: { uploads: number; syncs: number; downloads: number };
  phasesDone: string[];
  resumes: number;
  torn?: string;
  text: string;
}

export async function runStatus(dir: string): Promise<RunStatus> {
  const s = await loadJournal(dir);
  if (!s.run) throw new Error(`${dir}: the journal has no run row`);
  const run = s.run;
  const units = runOrder(run.design, run.seed);
  const ups = [...s.uploads.values()];
  const uploaded = ups.filter((u) => u.ok).length;
  const synced = [...s.synced.values()];
  const downs = [...s.downloads.values()];
  const downloaded = downs.filter((d) => d.ok).length;
  const downloadFailed = downs.filter((d) => !d.ok && d.attempts >= run.design.attempts).length;
  const left = {
    uploads: units.length - s.uploads.size,
    syncs: uploaded - s.synced.size,
    downloads: uploaded - downloaded - downloadFailed,
  };
  const st: Omit<RunStatus, 'text'> = {
    runId: run.run_id,
    runner: run.runner,
    client: `${run.client.name} ${run.client.version}`,
    nodes: run.nodes.map((n) => `${n.label}=${n.release} (${n.version}) ${n.url}`),
    units: units.length,
    uploaded,
    uploadFailed: ups.length - uploaded,
    synced: synced.filter(Boolean).length,
    ceilingReached: synced.filter((x) => !x).length,
    downloaded,
    downloadFailed,
    left,
    phasesDone: [...s.phasesDone],
    resumes: s.resumes,
    ...(s.torn !== undefined ? { torn: s.torn } : {}),
  };
  const text = [
    `run ${st.runId}: runner ${st.runner} (${st.client}), ${cellsOf(run.design).length} cells × ${run.design.nodes.length} node(s) × ${run.design.replicates} replicates = ${st.units} units`,
    ...st.nodes.map((n) => `  node ${n}`),
    `uploads: ${st.uploaded} ok, ${st.uploadFailed} failed, ${left.uploads} left`,
    `sync: ${st.synced} synced, ${st.ceilingReached} reached the ${run.design.wait.ceiling_s} s ceiling, ${left.syncs} left`,
    `downloads: ${st.downloaded} units ok, ${st.downloadFailed} failed all ${run.design.attempts} attempts, ${left.downloads} left`,
    `phases done: ${st.phasesDone.join(', ') || 'none'}; resumed ${st.resumes} time(s)${st.torn !== undefined ? '; a torn last line is pending (cut off at the next run)' : ''}`,
  ].join('\n');
  return { ...st, text };
}
