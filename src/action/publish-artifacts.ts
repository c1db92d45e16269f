// Which artifacts of the measuring run the publish job reads: exactly the ones it expects, by exact
// name (`bee-bench-<client>`, one per client) or, where a merge job handed its upload's id on (the
// nightly), by that id alone. Every other `bee-bench-*` artifact of the run is refused by name, in a
// bounded number of lines: a job that ran client code holds ACTIONS_RUNTIME_TOKEN and can upload
// artifacts of any name to its run, and the shards' own artifacts are not the merged result.
import { ARTIFACT_PREFIX, artifactById, LISTED_ARTIFACTS, runArtifactNamed, runBeeBenchArtifacts, type RunArtifact } from '../github/artifacts.js';
import type { Octokit, RepoRef } from '../github/octokit.js';
import { RunnerSchema, type Runner } from '../spec/schema.js';

/** An artifact's name as a line quotes it: chosen by whoever uploaded it, so clipped (the line is made inert where it is logged). */
export const artifactName = (a: { name: string }) => (a.name.length > 100 ? `${a.name.slice(0, 100)}… (${a.name.length} characters)` : a.name);

/** Refusals named one per line up to this many; the rest are counted in one line. */
const NAMED_REFUSALS = 10;

export interface ExpectedArtifact extends RunArtifact {
  /** The client whose artifact this is by its name; undefined for a merged artifact read by id (every client). */
  client?: Runner;
}

export interface ArtifactSelection {
  read: ExpectedArtifact[];
  /** One line per refused artifact (bounded), each naming it and why. */
  refused: string[];
}

export async function selectArtifacts(
  gh: Octokit,
  run: RepoRef & { runId: number },
  want: { client?: Runner; artifactId?: number },
): Promise<ArtifactSelection> {
  const read: ExpectedArtifact[] = [];
  const refused: string[] = [];
  let expected: string;
  if (want.artifactId !== undefined) {
    expected = `artifact id ${want.artifactId} (input artifact-id)`;
    const a = await artifactById(gh, run, want.artifactId);
    if (!a || a.runId !== run.runId || !a.name.startsWith(ARTIFACT_PREFIX))
      refused.push(
        `artifact id ${want.artifactId} refused: ${a ? `it is ${artifactName(a)} of run ${a.runId}` : 'no such artifact'}, not a bee-bench artifact of run ${run.runId}`,
      );
    else {
      // A client's own bundle read by id still holds only that client's rows (publish-checks.ts); the nightly's merged one, every client's.
      const client = RunnerSchema.options.find((c) => a.name === `${ARTIFACT_PREFIX}${c}`);
      read.push({ ...a, ...(client ? { client } : {}) });
    }
  } else {
    const clients = want.client ? [want.client] : RunnerSchema.options;
    expected = clients.map((c) => `${ARTIFACT_PREFIX}${c}`).join(', ');
    for (const client of clients) {
      const a = await runArtifactNamed(gh, run, `${ARTIFACT_PREFIX}${client}`);
      if (a) read.push({ ...a, client });
    }
  }
  const { artifacts, total } = await runBeeBenchArtifacts(gh, run);
  const others = artifacts.filter((a) => !read.some((r) => r.id === a.id));
  for (const a of others.slice(0, NAMED_REFUSALS)) refused.push(`artifact ${artifactName(a)} refused: not one this publish reads (it reads ${expected})`);
  if (others.length > NAMED_REFUSALS) refused.push(`${others.length - NAMED_REFUSALS} more bee-bench artifact(s) refused: not ones this publish reads`);
  if (total > LISTED_ARTIFACTS)
    refused.push(`run ${run.runId} has ${total} artifacts; only the first ${LISTED_ARTIFACTS} were listed to name the refused ones`);
  return { read, refused };
}
