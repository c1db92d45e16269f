// Writes spec/result.schema.json and spec/plan.schema.json from the zod sources (src/spec). CI
// runs the test that compares the committed files with a fresh generation, so they cannot drift.
import { writeFileSync } from 'node:fs';
import { planJsonSchemaText, resultJsonSchemaText } from '../src/spec/json-schema.js';

writeFileSync(new URL('../spec/result.schema.json', import.meta.url), resultJsonSchemaText());
writeFileSync(new URL('../spec/plan.schema.json', import.meta.url), planJsonSchemaText());
console.error('wrote spec/result.schema.json and spec/plan.schema.json');
