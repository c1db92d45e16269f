import { z } from 'zod';
import { ResultSchema } from './schema.js';

/** The JSON Schema text of bee-bench/result@1, as committed in spec/result.schema.json. */
export function resultJsonSchemaText(): string {
  const schema = z.toJSONSchema(ResultSchema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' });
  return JSON.stringify({ $id: 'https://bee-bench.dev/schema/result@1.json', title: 'bee-bench/result@1', ...schema }, null, 2) + '\n';
}
