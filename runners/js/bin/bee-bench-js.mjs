#!/usr/bin/env node
// bee-bench runner for bee-js: see runners/README.md for the contract.
import { main } from '../src/cli.mjs';

process.exitCode = await main(process.argv.slice(2));
