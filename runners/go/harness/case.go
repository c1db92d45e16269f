// Package harness runs bee-bench cases under the runner contract (runners/README.md): it reads
// a resolved plan, times each unit's operation, and keeps the result file current after every
// unit. It knows nothing of bee-go; the runner's main package supplies the
// cases as a Registry.
package harness

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"github.com/ethswarm-tools/bee-bench/runners/go/harness/fixture"
	"github.com/ethswarm-tools/bee-bench/runners/go/harness/plan"
)

// Case prepares one case for one param, untimed: it builds inputs (fixtures, keys,
// pre-uploads) and returns the Bench that performs the operation. Returning Skip(reason) marks
// the case skipped (the client lacks the API, or the node refuses with a known limitation).
type Case func(ctx context.Context, env *Env, p plan.Params) (*Bench, error)

// Registry maps case ids to their implementation: the dispatch table.
type Registry map[string]Case

// Bench is a prepared case.
type Bench struct {
	// Before runs untimed before every iteration, warmups included (fresh salts, new topics).
	Before func(ctx context.Context) error
	// Op is exactly the timed operation.
	Op func(ctx context.Context) error
	// Output returns the raw output of the last Op, in index order, for the digest: the value
	// itself (form "value") or the concatenation the digest hashes (form "sha256-concat").
	// It runs untimed and only on the digest param.
	Output func() ([]byte, error)
	// Close releases what the case holds; it runs after the last iteration.
	Close func()
}

type skipError struct{ reason string }

func (e *skipError) Error() string { return "skipped: " + e.reason }

// Skip is returned by a Case to skip itself with a reason.
func Skip(reason string) error { return &skipError{reason: reason} }

// SkipReason reports whether err asks for a skip, and why.
func SkipReason(err error) (string, bool) {
	var s *skipError
	if errors.As(err, &s) {
		return s.reason, true
	}
	return "", false
}

// Node is the Bee node given by --bee-url and --batch-id.
type Node struct {
	URL     string
	BatchID string // 64 lowercase hex digits
	// CallTimeout bounds each call to the node (half the case timeout), so a frozen node fails a
	// case with "no answer in N s" naming the call before the case timeout cuts it off.
	CallTimeout time.Duration
}

// Env is what a case may use besides its param. One Env exists per case and param.
type Env struct {
	// Fixtures is the shared, cached fixture set.
	Fixtures *fixture.Set
	// FixturesDir is where on-disk fixtures are written and reused (--fixtures or a temp dir).
	FixturesDir string
	// Node is the Bee node, nil without --bee-url.
	Node *Node
	// ChunkPayloadBytes is the plan's chunk payload size (4096).
	ChunkPayloadBytes int

	salts    *fixture.Salts
	detached *detached
}

// Salt returns the next upload salt of the run: u64le(run nonce + upload counter).
func (e *Env) Salt() [8]byte { return e.salts.Next() }

// Go runs fn on a new goroutine that the case does not wait for. A panic there is recovered
// and fails the case: in Go an unrecovered panic on any goroutine ends the whole process, so
// every goroutine a case spawns must go through Go or recover by itself (see Parallel).
func (e *Env) Go(fn func()) {
	e.detached.wg.Add(1)
	go func() {
		defer e.detached.wg.Done()
		defer func() {
			if r := recover(); r != nil {
				e.detached.fail(fmt.Errorf("panic in a goroutine spawned by the case: %v\n%s", r, debug.Stack()))
			}
		}()
		fn()
	}()
}

// detached collects the failures of goroutines a case spawned and did not wait for.
type detached struct {
	wg   sync.WaitGroup
	mu   sync.Mutex
	err  error
	seen chan struct{} // closed on the first failure
}

func newDetached() *detached { return &detached{seen: make(chan struct{})} }

func (d *detached) fail(err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.err == nil {
		d.err = err
		close(d.seen)
	}
}

func (d *detached) failure() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.err
}

// Parallel runs fn(0..n-1) on n goroutines and waits for all of them. A panic on one of them
// is recovered and returned as its error; the first error wins.
func Parallel(n int, fn func(i int) error) error {
	var (
		wg    sync.WaitGroup
		once  sync.Once
		first error
	)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					once.Do(func() { first = fmt.Errorf("panic in worker %d: %v", i, r) })
				}
			}()
			if err := fn(i); err != nil {
				once.Do(func() { first = err })
			}
		}(i)
	}
	wg.Wait()
	return first
}
