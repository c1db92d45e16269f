// Tests that Align leaves every size class, and the tiny allocator, at the same page offset
// whatever was allocated before it.

package count

import (
	"runtime"
	"runtime/debug"
	"testing"
	"unsafe"
)

// Where the tests keep what they allocate, with room enough that keeping allocates nothing.
var (
	testSink  []any
	keptBytes = make([][]byte, 0, 1<<12)
	keptPtrs  = make([][]*byte, 0, 1<<12)
)

// As in a counting process: one P (one allocation cache) and no collector.
func countingLike(t *testing.T) {
	procs, gc := runtime.GOMAXPROCS(1), debug.SetGCPercent(-1)
	t.Cleanup(func() { runtime.GOMAXPROCS(procs); debug.SetGCPercent(gc) })
}

func TestSizeClassesAreTheRuntimes(t *testing.T) {
	cs := sizeClasses()
	// A few classes every Go release since 1.5 has had, and the largest.
	for _, want := range []int{16, 32, 48, 128, 1024, maxSmall} {
		found := false
		for _, c := range cs {
			found = found || c == want
		}
		if !found {
			t.Fatalf("size classes %v lack %d", cs, want)
		}
	}
	for i := 1; i < len(cs); i++ {
		if cs[i] <= cs[i-1] {
			t.Fatalf("size classes not increasing at %d: %v", i, cs)
		}
	}
}

// After Align, each class's next object is the second of a span (offset = its size in a page,
// plus the header for large pointerful objects) and the next tiny object opens a new block at
// the second slot of a 16-byte span, however many objects of any class came before.
func TestAlignGivesEveryClassTheSamePageOffset(t *testing.T) {
	countingLike(t)
	for _, before := range []int{0, 1, 7, 333} {
		for i := 0; i < before; i++ {
			testSink = append(testSink, make([]byte, 1+i%40), make([]*byte, 1+i%70), make([]byte, 100*(i%50)))
		}
		Align()
		addr := func(p unsafe.Pointer) uintptr { return uintptr(p) % pageSize }
		if got := addr(unsafe.Pointer(unsafe.SliceData(keepBytes(make([]byte, 3))))); got != tinyBlock {
			t.Fatalf("after %d allocations: the next tiny object is at page offset %d, want %d", before, got, tinyBlock)
		}
		Align()
		for _, size := range sizeClasses() {
			if got := addr(unsafe.Pointer(unsafe.SliceData(keepBytes(make([]byte, size))))); got != uintptr(size)%pageSize {
				t.Fatalf("after %d allocations: the next pointer-free %d-byte object is at page offset %d, want %d", before, size, got, size%pageSize)
			}
			n, at := size/8, uintptr(size)
			if size > headerFrom {
				n, at = (size-header)/8, uintptr(size+header)
			}
			if got := addr(unsafe.Pointer(unsafe.SliceData(keepPtrs(make([]*byte, n))))); got != at%pageSize {
				t.Fatalf("after %d allocations: the next pointerful %d-byte object is at page offset %d, want %d", before, size, got, at%pageSize)
			}
		}
	}
	testSink, keptBytes, keptPtrs = nil, keptBytes[:0], keptPtrs[:0]
}

func keepBytes(b []byte) []byte  { keptBytes = append(keptBytes, b); return b }
func keepPtrs(p []*byte) []*byte { keptPtrs = append(keptPtrs, p); return p }
