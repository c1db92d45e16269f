// Workflow artifacts: the measure job uploads its results (@actions/artifact); the publish job finds
// the ones it reads through the REST API, by exact name or id (src/action/publish-artifacts.ts).
// Without the artifact service (ACTIONS_RUNTIME_TOKEN / ACTIONS_RESULTS_URL, as in a local run or a
// test) an upload is a logged no-op and the files stay where they are.
import { DefaultArtifactClient } from '@actions/artifact';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { httpStatus, type Octokit, type RepoRef } from './octokit.js';

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

/**
 * Uploads every file under dir as one artifact; null (logged) when there is no artifact service.
 * With `replace`, an artifact of that name already in the run (an earlier job's, e.g. a piece job
 * that ran the PR's code) is deleted first, so the run's artifact of that name is this upload.
 */
export async function uploadFolder(name: string, dir: string, log: (line: string) => void, retentionDays?: number, replace = false): Promise<Uploaded | null> {
  if (!artifactServiceAvailable()) {
    log(`artifact: no artifact service (ACTIONS_RUNTIME_TOKEN/ACTIONS_RESULTS_URL unset); ${name} not uploaded, files stay in ${dir}`);
    return null;
  }
  const client = new DefaultArtifactClient();
  if (replace) {
    try {
      const gone = await client.deleteArtifact(name);
      log(`artifact: deleted an earlier ${name} of this run (id ${gone.id}): this job's upload replaces it`);
    } catch {
      // None of that name: the usual case.
    }
  }
  const res = await client.uploadArtifact(name, filesUnder(dir), dir, retentionDays ? { retentionDays } : {});
  log(`artifact: uploaded ${name} (${res.size ?? '?'} bytes, id ${res.id ?? '?'})`);
  return { id: res.id, size: res.size };
}

export interface RunArtifact {
  name: string;
  id: number;
  runId: number;
}

/** How many of a run's artifacts the publish job looks at to name the ones it refuses. */
export const LISTED_ARTIFACTS = 100;

type ApiArtifact = { id: number; name: string; workflow_run?: { id?: number | undefined } | null };
const runArtifact = (a: ApiArtifact, runId: number): RunArtifact => ({ name: a.name, id: a.id, runId: a.workflow_run?.id ?? runId });

/** The run's newest artifact of exactly this name (the REST API filters by name), or undefined. */
export async function runArtifactNamed(gh: Octokit, run: RepoRef & { runId: number }, name: string): Promise<RunArtifact | undefined> {
  const { data } = await gh.rest.actions.listWorkflowRunArtifacts({ owner: run.owner, repo: run.repo, run_id: run.runId, name, per_page: 10 });
  const newest = data.artifacts.filter((a) => a.name === name && !a.expired).sort((a, b) => b.id - a.id)[0];
  return newest ? runArtifact(newest, run.runId) : undefined;
}

/** One artifact by id, with the run that uploaded it; undefined when there is none. */
export async function artifactById(gh: Octokit, repo: RepoRef, id: number): Promise<RunArtifact | undefined> {
  try {
    const { data } = await gh.rest.actions.getArtifact({ owner: repo.owner, repo: repo.repo, artifact_id: id });
    return data.expired ? undefined : runArtifact(data, -1);
  } catch (e) {
    if (httpStatus(e) === 404) return undefined;
    throw e;
  }
}

/** The run's bee-bench artifacts among its first LISTED_ARTIFACTS, and how many it has in all. */
export async function runBeeBenchArtifacts(gh: Octokit, run: RepoRef & { runId: number }): Promise<{ artifacts: RunArtifact[]; total: number }> {
  const { data } = await gh.rest.actions.listWorkflowRunArtifacts({ owner: run.owner, repo: run.repo, run_id: run.runId, per_page: LISTED_ARTIFACTS });
  return {
    artifacts: data.artifacts.filter((a) => a.name.startsWith(ARTIFACT_PREFIX)).map((a) => runArtifact(a, run.runId)),
    total: data.total_count,
  };
}
