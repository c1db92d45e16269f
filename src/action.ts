// Entry of the GitHub Action (action.yml: runs.using node24, main dist/index.js, bundled from here
// by scripts/build.mjs). The CLI (src/cli.ts) runs the same pipelines on a laptop.
import { main } from './action/main.js';

await main();
