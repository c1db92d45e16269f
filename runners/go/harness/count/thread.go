// While counting, the main goroutine keeps the process's first thread, so a case's goroutine
// always runs on a thread the runtime started, never on that one.

package count

import (
	"os"
	"runtime"
)

// Why: the Go runtime reads the clock through its thread's system stack (time.now moves to the
// thread's g0 stack for the call and reads the results back from there). The process's first
// thread has the operating system's main stack, every other one a stack the runtime had made
// alike, so those results sit at a different offset within a cache line on the first thread.
// Which thread runs a case's goroutine follows the wall clock (sysmon hands the P to another
// thread while a system call blocks); a timed step read on the first thread touched one
// cache line more or fewer (bee-go's empty noop step: 8,130 or 8,240 estimated cycles, 1.35%).
// A goroutine locked to a thread in an init function stays on it after init (runtime.LockOSThread),
// and a locked thread runs no other goroutine: the cases then always run on runtime-made threads.
func init() {
	if os.Getenv("BEE_BENCH_COUNT") == "1" {
		runtime.LockOSThread()
	}
}
