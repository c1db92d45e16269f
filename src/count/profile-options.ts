// The callgrind options function profiles (src/profile) need in the counting runs (callgrind.ts adds
// them to its command; kept in this file so what the profiles ask of callgrind stays in one place).
//
// Caller context: `--separate-callers=N` records each function's cost per chain of its last N
// callers (`memmove'runtime.growslice'swarm.calculateBMTRoot`), so src/profile/fold.ts charges a
// runtime or library function's cost to the client function that called it through up to N-1
// shared frames (V8's `Builtins_Call_ReceiverIsAny` -> `Builtins_CallFunction_ReceiverIsAny`, Go's
// `runtime.makeslice` -> `runtime.mallocgc`, Rust's `alloc::raw_vec` -> `malloc`) rather than
// splitting it by proportion at the first shared frame. Instruction counts are the same with it
// (it only splits where they are recorded); docs/profiles.md measures what it costs.
import type { Runner } from '../spec/schema.js';

/**
 * Callers recorded per function, per runner. bee-js two: V8's graph of builtins and JIT code is
 * wide, and with four a bee-js row's dumps held twice to seven times the nodes, whose reading took
 * 45 s against 139 s of counting (docs/profiles.md, "Caller context"); with two, 4.9 s against
 * 101 s, and the same client functions first. With closures listed under the function they are
 * written in (src/profile/fold.ts), two name the changed function first in every bee-js change of
 * the patch set made through a callback, iterator or builtin (bench/profile-patches.json).
 */
export const CALLER_CONTEXT: Readonly<Record<Runner, number>> = { go: 4, rs: 4, js: 2 };

/** The options a runner's counting run takes for its profiles. */
export const profileCallgrindOptions = (runner: Runner): string[] => (CALLER_CONTEXT[runner] > 0 ? [`--separate-callers=${CALLER_CONTEXT[runner]}`] : []);
