// Package alloc counts the heap allocations of a timed region (BEE_BENCH_ALLOCS=1,
// runners/README.md "Allocations").
//
// The figures are the runtime's own cumulative MemStats.Mallocs and TotalAlloc, read with
// runtime.ReadMemStats right before and after the region. ReadMemStats stops the world and flushes
// every P's allocation cache into the totals, so a region's difference is exact. runtime/metrics
// (/gc/heap/allocs:objects and :bytes) reads the same totals without that flush: small objects
// reach them only when a P's cached span fills up or is released, so a region sees whole spans or
// nothing. The flush also resets the tiny allocator's current block, so every region starts a
// fresh one and the bytes of tiny objects (combined 16 bytes at a time) repeat.
package alloc

import (
	"math"
	"runtime"
	"runtime/debug"
)

// Method is the result's alloc_counter.method.
const Method = "go runtime.ReadMemStats: Mallocs and TotalAlloc (size-class bytes), GOMAXPROCS=1, GC off"

// Configure makes the counts repeatable: one P, so a case's goroutines take turns in one order and
// share one per-P sync.Pool cache; no collection, which would drop pooled objects (their
// replacements would land in some iterations only) and run its workers at times of its own. The
// harness still collects between units, outside any region.
func Configure() {
	runtime.GOMAXPROCS(1)
	debug.SetGCPercent(-1)
}

// Counts are heap allocations: objects and their bytes.
type Counts struct {
	Objects, Bytes uint64
}

// Read returns the process's allocations so far. It allocates nothing itself.
func Read() Counts {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return Counts{Objects: m.Mallocs, Bytes: m.TotalAlloc}
}

// Since returns the allocations made after from.
func Since(from Counts) Counts {
	now := Read()
	return Counts{Objects: now.Objects - from.Objects, Bytes: now.Bytes - from.Bytes}
}

// Extra is the alloc_extra hook: one allocation of fraction x the bytes allocated since from
// (rounded to whole bytes; none when that is 0), which the caller keeps alive until its region
// ends.
func Extra(fraction float64, from Counts) []byte {
	return make([]byte, int(math.Round(fraction*float64(Since(from).Bytes))))
}
