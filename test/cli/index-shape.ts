// The part of the history's index.json the CLI tests read, as a schema.
import { z } from 'zod';

/** Just enough of index.json to check what the CLI wrote. */
export const HistoryIndexSchemaLike = z.object({
  schema: z.literal('bee-bench/history-index@1'),
  cases: z.array(z.object({ id: z.string() })),
});
