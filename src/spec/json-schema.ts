// The JSON Schemas committed under spec/ (result, plan, spec), generated from the zod schemas so the
// files users validate against cannot drift from what the engine accepts.
import { z } from 'zod';
import { PlanSchema } from './plan.js';
import { ResultSchema, SpecSchema } from './schema.js';

const jsonSchemaText = (schema: z.ZodType, name: string) =>
  JSON.stringify(
    {
      $id: `https://bee-bench.dev/schema/${name}.json`,
      title: `bee-bench/${name}`,
      ...z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }),
    },
    null,
    2,
  ) + '\n';

/** The JSON Schema text of bee-bench/result@1, as committed in spec/result.schema.json. */
export const resultJsonSchemaText = (): string => jsonSchemaText(ResultSchema, 'result@1');

/** The JSON Schema text of bee-bench/plan@1, as committed in spec/plan.schema.json. */
export const planJsonSchemaText = (): string => jsonSchemaText(PlanSchema, 'plan@1');

/** The JSON Schema text of bee-bench/spec@1 (the case spec's shape; cross-field rules live in zod only), as committed in spec/spec.schema.json. */
export const specJsonSchemaText = (): string => jsonSchemaText(SpecSchema, 'spec@1');
