// Writes spec/result.schema.json from the zod source (src/spec/schema.ts). CI runs the test that
// compares the committed file with a fresh generation, so the two cannot drift.
import { writeFileSync } from 'node:fs';
import { resultJsonSchemaText } from '../src/spec/json-schema.js';

const out = new URL('../spec/result.schema.json', import.meta.url);
writeFileSync(out, resultJsonSchemaText());
console.error('wrote spec/result.schema.json');
