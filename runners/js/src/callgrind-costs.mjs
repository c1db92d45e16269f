// What a callgrind dump counts, read the same way by this runner (to size a count-mode slowdown
// from the count the engine will see) and by the engine (src/count/callgrind.ts imports this file,
// since the runner is built from a copy of this folder alone and cannot import the engine).

/**
 * V8's heap management: the scavenger, mark-compact, the sweeper, evacuation, remembered sets,
 * free lists and the spaces' allocation slow paths (callgrind names a C++ function with its
 * return type first, and a template with its visitor). Left out of bee-js counts as GOGC=off
 * leaves Go's collector out: how much of it falls in a region depends on the heap's layout, which
 * differs between processes (the sweeper's work by 3%, `keccak.bulk` 0.7% in all), while the
 * JIT-compiled code counts the same to the instruction. Allocation-heavy changes show in wall time.
 */
export const V8_HEAP_FUNCTION =
  /\bv8::internal::(?:Heap|Scavenger\w*|\w*Scaveng\w*Visitor|MarkCompactCollector|MinorMarkCompactCollector|Sweeper|IncrementalMarking|ConcurrentMarking|MarkingBarrier|\w*Evacuat\w*|RememberedSet|SlotSet|TypedSlotSet|ArrayBufferSweeper|PretenuringHandler|PagedSpaceBase|CompactionSpace|SpaceWithLinearArea|SemiSpaceNewSpace|FreeList\w*)::|\bheap::base::|<v8::internal::\w*(?:Scaveng|Marking|Evacuat)\w*>/;

/**
 * V8's code-event loggers: with `--perf-basic-prof` (how the engine names JIT code in a dump) V8
 * formats a perf-map line, and a log line for the `--log` it implies, for each piece of code it
 * compiles, also inside a timed region. Left out of bee-js counts with their callees (the names'
 * formatting, the C library's printf and write): they are the naming's cost, not the code's, and
 * grow with the scripts' path lengths, which differ between builds.
 */
export const V8_LOGGER_FUNCTION = /^v8::internal::(?:Logger|V8FileLogger|CodeEventLogger|LinuxPerfBasicLogger|LogFile|ExistingCodeLogger)::/;

/** The dump's count as bee-bench reads it: its total without V8's heap management and loggers; null without a total. */
export function v8Count(text) {
  return v8Costs(text)?.[0] ?? null;
}

/**
 * Every event of the dump as bee-bench reads it (its `totals:` without V8's heap management and
 * loggers), one number per event of its `events:` line (Ir first; with `--cache-sim=yes` the
 * cache events follow); null without a total.
 */
export function v8Costs(text) {
  const total = dumpTotals(text);
  if (total === null) return null;
  const heap = v8HeapCosts(text);
  const logger = v8LoggerCosts(text);
  return total.map((n, i) => n - (heap[i] ?? 0) - (logger[i] ?? 0));
}

/** The cache events KCachegrind's cycle estimation reads: L1 misses (instruction fetch, data read, data write), then last-level misses. */
export const L1_MISSES = ['I1mr', 'D1mr', 'D1mw'];
export const LL_MISSES = ['ILmr', 'DLmr', 'DLmw'];
/** The weights of a first-level and a last-level miss in the estimate. */
export const L1_MISS_CYCLES = 10;
export const LL_MISS_CYCLES = 100;

/**
 * Estimated cycles (KCachegrind's CEst) of one cost vector over the dump's `events:`:
 * Ir + 10 x L1 misses + 100 x last-level misses; null when the dump carries no cache events
 * (callgrind ran without `--cache-sim=yes`).
 */
export function estimatedCycles(events, costs) {
  const at = (name) => {
    const i = events.indexOf(name);
    return i < 0 ? null : (costs[i] ?? 0);
  };
  const [ir, l1, ll] = [at('Ir'), L1_MISSES.map(at), LL_MISSES.map(at)];
  if (ir === null || [...l1, ...ll].some((n) => n === null)) return null;
  const sum = (xs) => xs.reduce((a, b) => a + b, 0);
  return ir + L1_MISS_CYCLES * sum(l1) + LL_MISS_CYCLES * sum(ll);
}

/**
 * What the runner's count-mode slowdown sizes its spins on: the dump's estimated cycles when it
 * carries cache events (a cycles run: the injected share is then a share of the cycles, as it is
 * of the wall time natively), its instruction count otherwise; null without a total.
 */
export function v8SlowdownCost(text) {
  const costs = v8Costs(text);
  if (costs === null) return null;
  return estimatedCycles(dumpEvents(text), costs) ?? costs[0] ?? 0;
}

/** The inclusive cost of V8_LOGGER_FUNCTION (Ir). */
export function v8LoggerCost(text) {
  return v8LoggerCosts(text)[0] ?? 0;
}

/** The inclusive cost of V8_LOGGER_FUNCTION, per event: own cost lines plus each call out of the set. */
export function v8LoggerCosts(text) {
  if (!text.includes('Logger::')) return [];
  return inclusiveCosts(text, (fn) => V8_LOGGER_FUNCTION.test(fn));
}

/** The Ir of the functions `isIn` takes with their callees (inclusiveCosts' first event). */
export function inclusiveCost(text, isIn) {
  return inclusiveCosts(text, isIn)[0] ?? 0;
}

/** The cost of the functions `isIn` takes with their callees, per event: own cost lines plus each call out of the set. */
export function inclusiveCosts(text, isIn) {
  return sumEventCosts(text, (fn, callee) => isIn(fn) && !(callee !== null && isIn(callee)));
}

/** The dump's `totals:` Ir, or null when it has none. */
export function dumpTotal(text) {
  return dumpTotals(text)?.[0] ?? null;
}

/** The dump's `totals:`, one number per event, or null when it has none. */
export function dumpTotals(text) {
  const totals = /^totals: ([\d ]+)$/m.exec(text);
  return totals ? totals[1].trim().split(/ +/).map(Number) : null;
}

/** The dump's `events:` names in column order (callgrind's default is Ir alone). */
export function dumpEvents(text) {
  const events = /^events: (.+)$/m.exec(text);
  return events ? events[1].trim().split(/ +/) : ['Ir'];
}

/** The own cost (Ir) of V8_HEAP_FUNCTION in a dump. */
export function v8HeapCost(text) {
  return v8HeapCosts(text)[0] ?? 0;
}

/** The own cost of V8_HEAP_FUNCTION in a dump, per event (the collector's callees are its own functions). */
export function v8HeapCosts(text) {
  if (!text.includes('v8::internal::')) return [];
  const heap = new Map();
  const isHeap = (fn) => {
    if (!heap.has(fn)) heap.set(fn, V8_HEAP_FUNCTION.test(fn));
    return heap.get(fn);
  };
  return sumEventCosts(text, (fn, callee) => callee === null && isHeap(fn));
}

/** The Ir of the cost lines `pick(fn, callee)` takes (sumEventCosts' first event). */
export function sumCosts(text, pick) {
  return sumEventCosts(text, pick)[0] ?? 0;
}

/**
 * Adds the cost lines `pick(fn, callee)` takes, per event (the `events:` line's order): `callee`
 * is null for a function's own cost line, the called function for a call's inclusive cost.
 * Callgrind's format: `fn=` and `cfn=` name a function as `(id) name` the first time, `(id)`
 * after; a `calls=` line is followed by the call's inclusive cost; any other line starting with a
 * position is a cost line of `fn`: its `positions:` (one, the line, unless the header says more),
 * then one number per event, trailing zeros left out.
 */
export function sumEventCosts(text, pick) {
  const names = new Map();
  const nameOf = (spec) => {
    const m = /^\((\d+)\)(?: (.*))?$/.exec(spec);
    if (!m) return spec;
    if (m[2] !== undefined) names.set(m[1], m[2]);
    return names.get(m[1]) ?? '';
  };
  const positions = /^positions: (.+)$/m.exec(text)?.[1].trim().split(/ +/).length ?? 1;
  const cost = dumpEvents(text).map(() => 0);
  let fn = '';
  let callee = '';
  let callCost = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('fn=')) {
      fn = nameOf(line.slice(3));
      callCost = false;
    } else if (line.startsWith('cfn=')) {
      callee = nameOf(line.slice(4));
    } else if (line.startsWith('calls=')) {
      callCost = true;
    } else if (/^[\d+*-]/.test(line)) {
      if (pick(fn, callCost ? callee : null)) {
        const values = line.split(' ');
        for (let i = 0; i < cost.length; i++) cost[i] += Number(values[positions + i] ?? 0);
      }
      callCost = false;
    }
  }
  return cost;
}
