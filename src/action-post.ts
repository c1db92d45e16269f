// Entry of the action's post step (action.yml: runs.post dist/post.js, bundled by scripts/build.mjs).
import { post } from './action/post.js';

await post();
