// Workflow artifacts (@actions/artifact): the PR job uploads its results and rendered comment; the
// fork-safe comment job (mode: comment) downloads them from the triggering run through the REST API.
// Without the artifact service (ACTIONS_RUNTIME_TOKEN / ACTIONS_RESULTS_URL, as in a local run or a
// test) an upload is a logged no-op and the files stay where they are.
import { DefaultArtifactClient } from '@actions/artifact';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { RepoRef } from './octokit.js';

/** Artifacts of one action run are named `bee-bench-<client>`; the comment job looks for the prefix. */
export const ARTIFACT_PREFIX = 'bee-bench-';

export function artifactServiceAvailable(): boolean {
  return Boolean(process.env.ACTIONS_RUNTIME_TOKEN && process.env.ACTIONS_RESULTS_URL);
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d).sort()) {
      const full = join(d, e);
      if (statSync(full).isDirectory()) walk(full);
      else out.push(full);
    }
  };
  walk(dir);
  return out;
}

export interface Uploaded {
  id?: number;
  size?: number;
}

/** Uploads every file under dir as one artifact; null (logged) when there is no artifact service. */
export async function uploadFolder(name: string, dir: string, log: (line: string) => void, retentionDays?: number): Promise<Uploaded | null> {
  if (!artifactServiceAvailable()) {
    log(`artifact: no artifact service (ACTIONS_RUNTIME_TOKEN/ACTIONS_RESULTS_URL unset); ${name} not uploaded, files stay in ${dir}`);
    return null;
  }
  const client = new DefaultArtifactClient();
  const res = await client.uploadArtifact(name, filesUnder(dir), dir, retentionDays ? { retentionDays } : {});
  log(`artifact: uploaded ${name} (${res.size ?? '?'} bytes, id ${res.id ?? '?'})`);
  return { id: res.id, size: res.size };
}

export interface RunArtifact {
  name: string;
  id: number;
}

/** bee-bench artifacts of another workflow run, newest per name. */
export async function listRunArtifacts(run: RepoRef & { runId: number; token: string }): Promise<RunArtifact[]> {
  const client = new DefaultArtifactClient();
  const { artifacts } = await client.listArtifacts({
    latest: true,
    findBy: { token: run.token, workflowRunId: run.runId, repositoryOwner: run.owner, repositoryName: run.repo },
  });
  return artifacts.filter((a) => a.name.startsWith(ARTIFACT_PREFIX)).map((a) => ({ name: a.name, id: a.id }));
}

/** Downloads and unzips one artifact of another run into dir. */
export async function downloadRunArtifact(run: RepoRef & { runId: number; token: string }, artifactId: number, dir: string): Promise<string> {
  const client = new DefaultArtifactClient();
  const res = await client.downloadArtifact(artifactId, {
    path: dir,
    findBy: { token: run.token, workflowRunId: run.runId, repositoryOwner: run.owner, repositoryName: run.repo },
  });
  if (res.digestMismatch) throw new Error(`artifact ${artifactId}: digest mismatch after download`);
  return res.downloadPath ?? dir;
}
