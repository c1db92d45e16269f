// Lock-step pacing: the runner waits for the engine's go-ahead before each step (docs/design.md
// "Pacing protocol").

package harness

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
)

// pacer takes turns with another runner process (BEE_BENCH_PACE_FD, runners/README.md): before
// each warmup and timed iteration it announces `ready <unit> <step>` on the inherited file
// descriptor and blocks until the engine grants the turn with one byte. A nil *pacer does not
// pace.
type pacer struct {
	// mu makes each announce-and-wait one exchange: the goroutine of a case abandoned at its
	// timeout may still be blocked in its read, and the byte it waits for is not the next case's.
	mu sync.Mutex
	f  *os.File // nil once pacing has ended
}

// newPacer paces on the inherited descriptor fd; it returns nil (no pacing) when fd is not open,
// since writing to it later could hit a file the runner itself opened under that number.
func newPacer(fd int) *pacer {
	f := os.NewFile(uintptr(fd), "BEE_BENCH_PACE_FD")
	if f == nil {
		return nil
	}
	if _, err := f.Stat(); err != nil {
		f.Close() // marks f closed, so its finalizer cannot close a later file that gets fd
		return nil
	}
	return &pacer{f: f}
}

// wait announces step `step` of unit `unit` and blocks until it is this runner's turn. End of
// file or an error on the descriptor ends the pacing for good: the runner runs on by itself.
// It returns the case's context error so that a case abandoned at its timeout stops there
// instead of announcing more iterations.
func (p *pacer) wait(ctx context.Context, unit, step int) error {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.f == nil || ctx.Err() != nil {
		return ctx.Err()
	}
	var turn [1]byte
	if _, err := fmt.Fprintf(p.f, "ready %d %d\n", unit, step); err != nil {
		p.end()
	} else if _, err := io.ReadFull(p.f, turn[:]); err != nil {
		p.end()
	}
	return ctx.Err()
}

// end stops pacing; p.mu is held.
func (p *pacer) end() {
	p.f.Close()
	p.f = nil
}
