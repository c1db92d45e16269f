// Align puts Go's small-object allocator in the same place in every counting process before a
// case's setup and before each counted region, so that a case's objects land at the same
// offsets within their pages, and so in the same sets of callgrind's simulated caches, whatever
// the process allocated before (the estimated cycles, docs/evidence.md).

package count

import (
	"slices"
	"sync"
	"unsafe"
)

// Why: what a process allocates before a case is not the same in every process. The runtime
// starts a thread when sysmon hands a P over from a goroutine that sat in a system call past
// its tick (a write to the log, a read of the plan), which allocates the thread's m, g and
// signal stack, and each thread seeds its own random generator, which seeds the hash tries of
// the sync.Maps behind encoding/json's type caches, whose allocations then differ. A few
// objects more or less before a case's setup shift every object after them within the pages of
// their size class: bee-go's `manifest.lookup-large` then read 0.1-0.25% more or fewer
// estimated cycles (50,000 first-level misses in bee-go's commonPrefix) with the same
// instructions (docs/calibration.md "Estimated cycles").
//
// How: the allocator hands out each size class's objects in order from a span, a run of whole
// pages; the tiny allocator packs small pointer-free objects into 16-byte blocks of its own.
// Align fills the current tiny block and then allocates from every size class, pointer-free and
// pointerful, until an object opens a new span. After it, every class's next object is the
// second of a fresh span, at a fixed offset in a page. Which pages the spans take can still
// differ between processes; a page (8 KiB) is a whole number of first-level cache periods (the
// simulated L1's 64 sets of 64-byte lines span 4 KiB), so the first-level sets do not. The
// allocations are garbage from then on (counting runs with the collector off, GOGC=off); none of
// it runs inside a counted region.

const (
	pageSize = 8192 // the runtime's page: every span starts on one
	// maxSmall is the largest size class; larger objects get spans of their own, page-aligned.
	maxSmall = 32768
	// tinyBlock is the tiny allocator's block: pointer-free objects under 16 bytes share one.
	tinyBlock = 16
	// headerFrom is the size above which a pointerful object carries an 8-byte type header in
	// front of it (the runtime's minSizeForMallocHeader on 64-bit): the pointer returned is 8 bytes
	// into the slot.
	headerFrom = 512
	header     = 8
)

var (
	classesOnce sync.Once
	classes     []int // the runtime's small size classes, 16 bytes and up

	// Sinks: an allocation must reach the heap, not the stack.
	sinkBytes []byte
	sinkPtrs  []*byte
)

// sizeClasses finds the runtime's size classes by asking it to round sizes up: a slice grown
// from nil to n bytes gets the capacity of n's size class.
func sizeClasses() []int {
	classesOnce.Do(func() {
		for n := tinyBlock; n <= maxSmall; {
			c := cap(slices.Grow[[]byte](nil, n))
			if c > maxSmall {
				break
			}
			classes = append(classes, c)
			n = c + 1
		}
	})
	return classes
}

// Align runs outside counted regions only (it allocates a span's worth of most classes).
func Align() {
	classes := sizeClasses()
	alignTiny()
	for _, size := range classes {
		// Pointer-free: a byte slice of the class's size.
		fresh(func() uintptr {
			sinkBytes = make([]byte, size)
			return uintptr(unsafe.Pointer(unsafe.SliceData(sinkBytes)))
		}, size, 0)
		// Pointerful: a slice of pointers of the class's size, its header included above headerFrom.
		n, at := size/8, uintptr(0)
		if size > headerFrom {
			n, at = (size-header)/8, header
		}
		fresh(func() uintptr {
			sinkPtrs = make([]*byte, n)
			return uintptr(unsafe.Pointer(unsafe.SliceData(sinkPtrs)))
		}, size, at)
	}
	sinkBytes, sinkPtrs = nil, nil
}

// fresh allocates with alloc until an object is the first of a new span (its slot starts a
// page: `at` bytes before the pointer), at most a span's worth and then some.
func fresh(alloc func() uintptr, size int, at uintptr) {
	limit := 16*pageSize/size + 2 // the largest small span is 10 pages
	for i := 0; i < limit; i++ {
		if (alloc()-at)%pageSize == 0 {
			return
		}
	}
}

// alignTiny fills the current tiny block: one-byte objects are placed at the block's next free
// byte, so when one lands on a block's last byte the block is full, and the next small
// pointer-free object takes a new 16-byte block from its size class (which Align then aligns).
func alignTiny() {
	for i := 0; i < tinyBlock+1; i++ {
		sinkBytes = make([]byte, 1)
		if uintptr(unsafe.Pointer(unsafe.SliceData(sinkBytes)))%tinyBlock == tinyBlock-1 {
			return
		}
	}
}
