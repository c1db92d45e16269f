// The callgrind options function profiles (src/profile) need in the counting runs (callgrind.ts adds
// them to its command; kept in this file so what the profiles ask of callgrind stays in one place).
//
// Caller context: `--separate-callers=N` records each function's cost per chain of its last N
// callers (`memmove'runtime.growslice'swarm.calculateBMTRoot`), so fold.ts charges a runtime or
// library function's cost to the client function that called it through up to N-1 shared frames
// (V8's `Builtins_Call_ReceiverIsAny` -> `Builtins_CallFunction_ReceiverIsAny`, Go's
// `runtime.makeslice` -> `runtime.mallocgc`, Rust's `alloc::raw_vec` -> `malloc`) rather than
// splitting it by proportion at the first shared frame. Instruction counts are the same with it
// (it only splits where they are recorded); docs/profiles.md measures what it costs.

/** Callers recorded per function. */
export const CALLER_CONTEXT = 4;

export const PROFILE_CALLGRIND_OPTIONS: readonly string[] = CALLER_CONTEXT > 0 ? [`--separate-callers=${CALLER_CONTEXT}`] : [];
