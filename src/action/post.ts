// The action's post step (action.yml runs.post): GitHub runs it after the job's steps, also when
// the main step failed or was cancelled, so a dev node's container never outlives the job even if
// the main step was killed before its own clean-up ran.
import * as core from '@actions/core';
import { removeContainer } from '../bee/dev-node.js';

/** The state key (core.saveState) naming the dev node's container, set before `docker run`. */
export const BEE_CONTAINER_STATE = 'bee-container';

export async function post(): Promise<void> {
  const name = core.getState(BEE_CONTAINER_STATE);
  if (!name) return;
  try {
    await removeContainer(name, (l) => core.info(l));
  } catch (e) {
    core.warning(`bee: removing container ${name} failed: ${e instanceof Error ? e.message : String(e)}`);
  }
}
