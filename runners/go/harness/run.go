// Running a plan's units: each case's iterations, samples and digests, sealed into the result.

package harness

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/ethswarm-tools/bee-bench/runners/go/harness/alloc"
	"github.com/ethswarm-tools/bee-bench/runners/go/harness/count"
	"github.com/ethswarm-tools/bee-bench/runners/go/harness/fixture"
	"github.com/ethswarm-tools/bee-bench/runners/go/harness/measure"
	"github.com/ethswarm-tools/bee-bench/runners/go/harness/plan"
	"github.com/ethswarm-tools/bee-bench/runners/go/harness/result"
)

// NoNodeReason is the skip reason of every net case when no node is given.
const NoNodeReason = "no Bee node given (--bee-url and --batch-id)"

// session is one `run`: what the plan's units share, and the result file.
type session struct {
	runner      string
	modes       Modes
	node        *Node
	registry    Registry
	fixtures    *fixture.Set
	chunkBytes  int
	fixturesDir string
	salts       *fixture.Salts
	pace        *pacer // nil: no pacing
	res         *result.Result
	out         string
	log         io.Writer
}

// runAll runs every unit in order, rewriting the result file after each; a write error means
// the harness itself broke.
func (s *session) runAll(us []plan.Unit) error {
	if err := result.Write(s.out, s.res); err != nil {
		return err
	}
	for k, u := range us {
		prefix := fmt.Sprintf("[%d/%d] %s %s", k+1, len(us), u.ID, u.Param.Label())
		fmt.Fprintf(s.log, "%s ...\n", prefix)
		cr := s.runUnit(u, prefix)
		fmt.Fprintf(s.log, "%s -> %s\n", prefix, outcome(cr))
		s.res.Cases = append(s.res.Cases, cr)
		if cr.AllocBytes != nil {
			s.res.AllocCounter = &result.AllocCounter{Method: alloc.Method}
		}
		if err := result.Write(s.out, s.res); err != nil {
			return err
		}
		// Release the case's buffers and settle the GC before the next case (runtime.GC, then
		// return freed memory to the OS so the next case's RSS starts from the live heap).
		debug.FreeOSMemory()
	}
	done := result.Timestamp(time.Now())
	s.res.FinishedAt = &done
	return result.Write(s.out, s.res)
}

// sample is what one timed iteration measured.
type sample struct {
	wall, cpu int64
	counted   bool // allocation mode: allocs holds the region's allocations
	allocs    alloc.Counts
}

// recorder holds what a case produced so far; after a timeout the abandoned goroutine may
// still call it, so it is locked and sealed when read.
type recorder struct {
	mu      sync.Mutex
	sealed  bool
	samples []sample
	digest  string
}

func (r *recorder) add(x sample) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.sealed {
		r.samples = append(r.samples, x)
	}
}

func (r *recorder) setDigest(d string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.sealed {
		r.digest = d
	}
}

// seal stops recording and writes the samples and digest into cr.
func (r *recorder) seal(cr *result.Case) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sealed = true
	cr.SamplesNS, cr.CPUNS, cr.Digest = []int64{}, []int64{}, r.digest
	for _, x := range r.samples {
		cr.SamplesNS = append(cr.SamplesNS, x.wall)
		cr.CPUNS = append(cr.CPUNS, x.cpu)
		if x.counted {
			cr.Allocs = append(cr.Allocs, x.allocs.Objects)
			cr.AllocBytes = append(cr.AllocBytes, x.allocs.Bytes)
		}
	}
}

// runUnit runs one case under one param to a result; it never panics and never blocks past the
// case timeout (a hung case goroutine is abandoned and the run goes on).
func (s *session) runUnit(u plan.Unit, prefix string) *result.Case {
	cr := &result.Case{
		ID:        u.ID,
		Kind:      u.Kind,
		Param:     u.Param,
		Warmup:    u.Warmup,
		SamplesNS: []int64{},
		CPUNS:     []int64{},
		Work:      u.Work,
	}
	if u.Kind == "net" && s.node == nil {
		cr.Status, cr.SkipReason = result.StatusSkipped, NoNodeReason
		return cr
	}
	impl := s.registry[u.ID]
	if impl == nil {
		cr.Status, cr.SkipReason = result.StatusSkipped, "not implemented by the "+s.runner+" runner"
		return cr
	}

	env := &Env{
		Fixtures:          s.fixtures,
		FixturesDir:       s.fixturesDir,
		ChunkPayloadBytes: s.chunkBytes,
		salts:             s.salts,
		detached:          newDetached(),
	}
	if s.node != nil {
		n := *s.node
		n.CallTimeout = u.Timeout() / 2
		env.Node = &n
	}
	rec := &recorder{}
	timeout := u.Timeout()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()

	peak := measure.StartPeak()
	done := make(chan error, 1)
	go func() {
		var err error
		defer func() {
			if p := recover(); p != nil {
				err = panicError(p)
			}
			done <- err
		}()
		err = s.execute(ctx, env, impl, u, rec, prefix)
	}()
	timedOut := fmt.Errorf("timed out after %s (the case timeout covers setup to the last iteration); the case's goroutine was abandoned", timeout)
	var err error
	select {
	case err = <-done:
		if err != nil && ctx.Err() != nil {
			err = timedOut // the failure is the deadline cutting the case short
		}
	case <-ctx.Done():
		err = timedOut
	}
	if rss, ok := peak.Stop(); ok {
		cr.PeakRSSBytes = &rss
	}
	rec.seal(cr)

	switch reason, skipped := SkipReason(err); {
	case skipped:
		cr.Status, cr.SkipReason = result.StatusSkipped, reason
		cr.SamplesNS, cr.CPUNS, cr.Digest, cr.Allocs, cr.AllocBytes = []int64{}, []int64{}, "", nil, nil
	case err != nil:
		cr.Status, cr.Error = result.StatusFailed, clip(err.Error(), maxErrorLen)
	default:
		cr.Status = result.StatusOK
	}
	return cr
}

// maxErrorLen bounds the error text a result records (panics carry a stack trace).
const maxErrorLen = 4000

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "... (truncated)"
}

func panicError(p any) error {
	if pe, ok := p.(*plan.ParamError); ok {
		return pe
	}
	return fmt.Errorf("panic: %v\n%s", p, debug.Stack())
}

// execute is the body of one unit on its own goroutine: setup, digest, warmup, timed iterations.
func (s *session) execute(ctx context.Context, env *Env, impl Case, u plan.Unit, rec *recorder, prefix string) error {
	counted := s.modes.Count && u.Kind == "cpu"
	if counted {
		// The case's objects at the same page offsets in every counting process (count.Align).
		count.Align()
	}
	b, err := impl(ctx, env, u.Param)
	if err != nil {
		if _, skip := SkipReason(err); skip {
			return err
		}
		return fmt.Errorf("setup: %w", err)
	}
	if b == nil || b.Op == nil {
		return errors.New("setup returned no operation")
	}
	if b.Close != nil {
		defer b.Close()
	}

	if u.Digest != nil {
		d, err := s.digest(ctx, env, impl, b, u.Param, u.Digest)
		if err != nil {
			return err
		}
		rec.setDigest(d)
	}

	// Pacing waits come before each iteration's untimed Before, outside the timed region; steps
	// count the warmups first.
	for i := 0; i < u.Warmup; i++ {
		if err := s.pace.wait(ctx, u.Unit, i); err != nil {
			return err
		}
		if err := once(ctx, b); err != nil {
			return fmt.Errorf("warmup %d: %w", i+1, err)
		}
		if err := env.detached.failure(); err != nil {
			return err
		}
	}

	for i := 0; i < u.Iters; i++ {
		step := u.Warmup + i
		if err := s.pace.wait(ctx, u.Unit, step); err != nil {
			return err
		}
		if b.Before != nil {
			if err := b.Before(ctx); err != nil {
				return fmt.Errorf("iteration %d: before: %w", i+1, err)
			}
		}
		x, err := s.timed(ctx, env, b, u, step)
		if err != nil {
			return fmt.Errorf("iteration %d: %w", i+1, err)
		}
		rec.add(x)
		// Counting runs are slow and few: every iteration is said, so none looks skipped.
		if wall := time.Duration(x.wall); wall > time.Second || s.modes.Count {
			fmt.Fprintf(s.log, "%s   iteration %d/%d: %s\n", prefix, i+1, u.Iters, wall.Round(time.Millisecond))
		}
		if err := env.detached.failure(); err != nil {
			return err
		}
	}

	// Goroutines the case left running must end within the case timeout; their panics fail it.
	finished := make(chan struct{})
	go func() { env.detached.wg.Wait(); close(finished) }()
	select {
	case <-finished:
	case <-env.detached.seen:
	case <-ctx.Done():
		return ctx.Err()
	}
	return env.detached.failure()
}

// timed runs one timed iteration: the operation and the unit's hooks inside the clocks, and, for
// a CPU unit, inside the instruction-counting or allocation-counting region of those modes.
func (s *session) timed(ctx context.Context, env *Env, b *Bench, u plan.Unit, step int) (sample, error) {
	counted := s.modes.Count && u.Kind == "cpu"
	allocs := s.modes.Allocs && u.Kind == "cpu"
	if counted {
		// What the region allocates at the same page offsets in every process, whatever ran since
		// the setup (the digest, the warmups, the log's system calls): count.Align. Before the
		// settle, so that the region still follows the sleep's wake-up, not the alignment's work.
		count.Align()
	}
	if counted || allocs {
		measure.Settle()
	}
	if counted {
		count.Start()
	}
	var a0 alloc.Counts
	if allocs {
		a0 = alloc.Read()
	}
	c0 := measure.CPUTime()
	t0 := time.Now()
	err := b.Op(ctx)
	if u.Slowdown > 0 && !counted {
		measure.Spin(time.Duration(u.Slowdown * float64(time.Since(t0))))
	}
	var extra []byte
	if allocs && u.AllocExtra > 0 && err == nil {
		extra = alloc.Extra(u.AllocExtra, a0)
	}
	if u.Fault != "" && err == nil {
		err = inject(u.Fault, env)
	}
	x := sample{wall: time.Since(t0).Nanoseconds()}
	x.cpu = max(measure.CPUTime()-c0, 0)
	if allocs {
		x.counted, x.allocs = true, alloc.Since(a0)
		runtime.KeepAlive(extra)
	}
	if counted {
		count.Stop(u.Unit, step)
		if u.Slowdown > 0 && err == nil {
			err = count.SlowDown(u.Slowdown, u.Unit, step)
		}
	}
	return x, err
}

// once runs one untimed iteration: Before then Op.
func once(ctx context.Context, b *Bench) error {
	if b.Before != nil {
		if err := b.Before(ctx); err != nil {
			return fmt.Errorf("before: %w", err)
		}
	}
	return b.Op(ctx)
}

// digest evaluates the operation once, untimed, on the digest param and fingerprints its output.
// When the digest param is the effective param the prepared bench is reused.
func (s *session) digest(ctx context.Context, env *Env, impl Case, b *Bench, eff plan.Params, d *plan.Digest) (string, error) {
	if !maps.Equal(d.Param, eff) {
		db, err := impl(ctx, env, d.Param)
		if err != nil {
			if _, skip := SkipReason(err); skip {
				return "", err
			}
			return "", fmt.Errorf("digest setup: %w", err)
		}
		if db == nil || db.Op == nil {
			return "", errors.New("digest setup returned no operation")
		}
		if db.Close != nil {
			defer db.Close()
		}
		b = db
	}
	if b.Output == nil {
		return "", errors.New("the spec wants a digest but the case has no Output")
	}
	if err := once(ctx, b); err != nil {
		return "", fmt.Errorf("digest: %w", err)
	}
	out, err := b.Output()
	if err != nil {
		return "", fmt.Errorf("digest output: %w", err)
	}
	if d.Form == plan.FormSHA256Concat {
		sum := sha256.Sum256(out)
		out = sum[:]
	}
	return hex.EncodeToString(out), nil
}

func inject(mode string, env *Env) error {
	switch mode {
	case plan.FaultThrow:
		return errInjected
	case plan.FaultHang:
		<-make(chan struct{}) // forever: only the case timeout ends this case
	case plan.FaultReject:
		env.Go(func() { panic("BEE_BENCH_FAULT: injected panic in a detached goroutine") })
	}
	return nil
}

// errInjected is the error of the `throw` fault.
var errInjected = errors.New("BEE_BENCH_FAULT: injected error in the timed iteration")

// outcome renders a case result for the progress line.
func outcome(c *result.Case) string {
	switch c.Status {
	case result.StatusSkipped:
		return "skipped: " + c.SkipReason
	case result.StatusFailed:
		msg := c.Error
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		return fmt.Sprintf("failed after %d samples: %s", len(c.SamplesNS), msg)
	}
	s := fmt.Sprintf("ok: median %s (min %s, %d iters), cpu median %s",
		fmtNS(median(c.SamplesNS)), fmtNS(minOf(c.SamplesNS)), len(c.SamplesNS), fmtNS(median(c.CPUNS)))
	if c.PeakRSSBytes != nil {
		s += fmt.Sprintf(", peak RSS %.1f MiB", float64(*c.PeakRSSBytes)/(1<<20))
	}
	if c.Digest != "" {
		s += ", digest " + c.Digest
	}
	if len(c.Allocs) > 0 {
		s += fmt.Sprintf(", %d allocs (%d B) in iteration 1", c.Allocs[0], c.AllocBytes[0])
	}
	return s
}

func median(xs []int64) int64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]int64{}, xs...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func minOf(xs []int64) int64 {
	if len(xs) == 0 {
		return 0
	}
	m := xs[0]
	for _, x := range xs[1:] {
		m = min(m, x)
	}
	return m
}

func fmtNS(ns int64) string {
	switch {
	case ns >= 1e9:
		return fmt.Sprintf("%.3f s", float64(ns)/1e9)
	case ns >= 1e6:
		return fmt.Sprintf("%.3f ms", float64(ns)/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.3f µs", float64(ns)/1e3)
	}
	return fmt.Sprintf("%d ns", ns)
}
