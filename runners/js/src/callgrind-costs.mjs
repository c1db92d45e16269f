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
  const total = dumpTotal(text);
  return total === null ? null : total - v8HeapCost(text) - v8LoggerCost(text);
}

/** The inclusive cost of V8_LOGGER_FUNCTION: own cost lines plus each call out of the set. */
export function v8LoggerCost(text) {
  if (!text.includes('Logger::')) return 0;
  return inclusiveCost(text, (fn) => V8_LOGGER_FUNCTION.test(fn));
}

/** The cost of the functions `isIn` takes with their callees: own cost lines plus each call out of the set. */
export function inclusiveCost(text, isIn) {
  return sumCosts(text, (fn, callee) => isIn(fn) && !(callee !== null && isIn(callee)));
}

/** The dump's `totals:` Ir, or null when it has none. */
export function dumpTotal(text) {
  const totals = /^totals: (\d+)/m.exec(text);
  return totals ? Number(totals[1]) : null;
}

/** The own cost of V8_HEAP_FUNCTION in a dump (the collector's callees are its own functions). */
export function v8HeapCost(text) {
  if (!text.includes('v8::internal::')) return 0;
  const heap = new Map();
  const isHeap = (fn) => {
    if (!heap.has(fn)) heap.set(fn, V8_HEAP_FUNCTION.test(fn));
    return heap.get(fn);
  };
  return sumCosts(text, (fn, callee) => callee === null && isHeap(fn));
}

/**
 * Adds the Ir of the cost lines `pick(fn, callee)` takes: `callee` is null for a function's own
 * cost line, the called function for a call's inclusive cost. Callgrind's format: `fn=` and
 * `cfn=` name a function as `(id) name` the first time, `(id)` after; a `calls=` line is followed
 * by the call's inclusive cost; any other line starting with a position is a cost line of `fn`.
 */
export function sumCosts(text, pick) {
  const names = new Map();
  const nameOf = (spec) => {
    const m = /^\((\d+)\)(?: (.*))?$/.exec(spec);
    if (!m) return spec;
    if (m[2] !== undefined) names.set(m[1], m[2]);
    return names.get(m[1]) ?? '';
  };
  let fn = '';
  let callee = '';
  let callCost = false;
  let cost = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('fn=')) {
      fn = nameOf(line.slice(3));
      callCost = false;
    } else if (line.startsWith('cfn=')) {
      callee = nameOf(line.slice(4));
    } else if (line.startsWith('calls=')) {
      callCost = true;
    } else if (/^[\d+*-]/.test(line)) {
      if (pick(fn, callCost ? callee : null)) cost += Number(line.split(' ')[1] ?? 0);
      callCost = false;
    }
  }
  return cost;
}
