// A row's profile difference as it travels from the measure job to the report and the publish job:
// data from a process that ran the pull request's code, so every name is length-capped, every
// list bounded and every figure finite (docs/security.md). Names are escaped where rendered.
import { z } from 'zod';
import { RunnerSchema } from '../spec/schema.js';
import { NAME_CHARS } from './names.js';

const MAX_LINES = 20;
const name = z
  .string()
  .min(1)
  .max(NAME_CHARS * 2); // UTF-16 units: a name of NAME_CHARS code points
const ir = z.number().finite().nonnegative();
const status = z.enum(['new', 'gone']).optional();

export const SelfLineSchema = z.strictObject({ name, base: ir, head: ir, status });
export type SelfLine = z.infer<typeof SelfLineSchema>;

export const ProfileDiffSchema = z.strictObject({
  caseId: z.string().max(200),
  label: z.string().max(200),
  runner: RunnerSchema,
  /** Instructions per iteration of the whole row, by side. */
  total: z.strictObject({ base: ir, head: ir }),
  iterations: z.strictObject({ base: z.number().int().nonnegative(), head: z.number().int().nonnegative() }),
  /** Functions by change in their own instructions per iteration. */
  self: z.array(SelfLineSchema).max(MAX_LINES),
  /** The client's functions by change with the callees outside the client folded in, and those callees. */
  own: z
    .array(
      z.strictObject({
        name,
        base: ir,
        head: ir,
        inclusiveBase: ir,
        inclusiveHead: ir,
        via: z.array(name).max(5),
        status,
      }),
    )
    .max(MAX_LINES),
  /** Calls into the allocator per iteration by allocation site; null where callgrind cannot see them (bee-js). */
  allocations: z
    .array(z.strictObject({ name, base: ir, head: ir }))
    .max(MAX_LINES)
    .nullable(),
});
export type ProfileDiff = z.infer<typeof ProfileDiffSchema>;

/** At most this many rows carry a difference in a report (the flagged ones, largest change first). */
export const MAX_PROFILED_ROWS = 100;
export const ProfileDiffsSchema = z.array(ProfileDiffSchema).max(MAX_PROFILED_ROWS);
