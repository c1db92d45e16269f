// Writes spec/result.schema.json, spec/plan.schema.json and spec/spec.schema.json from the zod sources (src/spec). CI
// runs the test that compares the committed files with a fresh generation, so they cannot drift.
import { writeFileSync } from 'node:fs';
import { planJsonSchemaText, resultJsonSchemaText, specJsonSchemaText } from '../src/spec/json-schema.js';

writeFileSync(new URL('../spec/result.schema.json', import.meta.url), resultJsonSchemaText());
writeFileSync(new URL('../spec/plan.schema.json', import.meta.url), planJsonSchemaText());
writeFileSync(new URL('../spec/spec.schema.json', import.meta.url), specJsonSchemaText());
console.error('wrote spec/result.schema.json, spec/plan.schema.json and spec/spec.schema.json');
