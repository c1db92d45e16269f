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
