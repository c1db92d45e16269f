package harness

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/ethswarm-tools/bee-bench/runners/go/harness/count"
	"github.com/ethswarm-tools/bee-bench/runners/go/harness/fixture"
	"github.com/ethswarm-tools/bee-bench/runners/go/harness/measure"
	"github.com/ethswarm-tools/bee-bench/runners/go/harness/result"
	"github.com/ethswarm-tools/bee-bench/runners/go/harness/spec"
)

// NoNodeReason is the skip reason of every net case when no node is given.
const NoNodeReason = "no Bee node given (--bee-url and --batch-id)"

// unit is one case under one param: the grain of timing, progress and results.
type unit struct {
	c     *spec.Case
	raw   spec.RawParam
	index int // 0-based position in the run's plan (the <unit> of BEE_BENCH_PACE_FD)
}

// session is one `run`: the selected units, what they share, and the result file.
type session struct {
	runner      string
	spec        *spec.Spec
	profile     string
	hooks       Hooks
	node        *Node
	registry    Registry
	fixtures    *fixture.Set
	fixturesDir string
	salts       *fixture.Salts
	pace        *pacer // nil: no pacing
	res         *result.Result
	out         string
	log         io.Writer
}

func (s *session) units(cases []*spec.Case, large bool) []unit {
	var us []unit
	for _, c := range cases {
		for _, p := range c.Params[s.profile] {
			if p.Large() && !large {
				continue
			}
			us = append(us, unit{c: c, raw: p, index: len(us)})
		}
	}
	return us
}

// runAll runs every unit in order, rewriting the result file after each; a write error means
// the harness itself broke.
func (s *session) runAll(us []unit) error {
	if err := result.Write(s.out, s.res); err != nil {
		return err
	}
	for k, u := range us {
		prefix := fmt.Sprintf("[%d/%d] %s %s", k+1, len(us), u.c.ID, u.raw.Effective(s.runner).Label())
		fmt.Fprintf(s.log, "%s ...\n", prefix)
		cr := s.runUnit(u, prefix)
		fmt.Fprintf(s.log, "%s -> %s\n", prefix, outcome(cr))
		s.res.Cases = append(s.res.Cases, cr)
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

func work(c *spec.Case, p spec.Params) result.Work {
	var w result.Work
	if v, ok := p.Product(c.Work.Ops); ok {
		w.Ops = &v
	}
	if v, ok := p.Product(c.Work.Bytes); ok {
		w.Bytes = &v
	}
	return w
}

// recorder holds what a case produced so far; after a timeout the abandoned goroutine may
// still call it, so it is locked and sealed when read.
type recorder struct {
	mu     sync.Mutex
	sealed bool
	wall   []int64
	cpu    []int64
	digest string
}

func (r *recorder) add(wall, cpu int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.sealed {
		r.wall = append(r.wall, wall)
		r.cpu = append(r.cpu, cpu)
	}
}

func (r *recorder) setDigest(d string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.sealed {
		r.digest = d
	}
}

func (r *recorder) seal() (wall, cpu []int64, digest string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sealed = true
	return append([]int64{}, r.wall...), append([]int64{}, r.cpu...), r.digest
}

func (s *session) timeout() time.Duration { return caseTimeout(s.hooks, s.spec, s.profile) }

// caseTimeout is the budget of one case and param: the hook's override or the profile's.
func caseTimeout(h Hooks, sp *spec.Spec, profile string) time.Duration {
	if h.CaseTimeout > 0 {
		return h.CaseTimeout
	}
	return time.Duration(sp.Profiles[profile].CaseTimeoutS * float64(time.Second))
}

func (s *session) iters(c *spec.Case) int {
	if s.hooks.Iters > 0 {
		return s.hooks.Iters
	}
	return s.spec.ItersFor(c, s.profile)
}

// runUnit runs one case under one param to a result; it never panics and never blocks past the
// case timeout (a hung case goroutine is abandoned and the run goes on).
func (s *session) runUnit(u unit, prefix string) *result.Case {
	eff := u.raw.Effective(s.runner)
	cr := &result.Case{
		ID:        u.c.ID,
		Kind:      u.c.Kind,
		Param:     eff,
		Warmup:    s.spec.Profiles[s.profile].Warmup.For(u.c.Kind),
		SamplesNS: []int64{},
		CPUNS:     []int64{},
		Work:      work(u.c, eff),
	}
	if u.c.Kind == "net" && s.node == nil {
		cr.Status, cr.SkipReason = result.StatusSkipped, NoNodeReason
		return cr
	}
	impl := s.registry[u.c.ID]
	if impl == nil {
		cr.Status, cr.SkipReason = result.StatusSkipped, "not implemented by the "+s.runner+" runner"
		return cr
	}

	env := &Env{
		Fixtures:          s.fixtures,
		FixturesDir:       s.fixturesDir,
		Node:              s.node,
		ChunkPayloadBytes: s.spec.Fixtures.ChunkPayloadBytes,
		salts:             s.salts,
		detached:          newDetached(),
	}
	rec := &recorder{}
	timeout := s.timeout()
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
		err = s.execute(ctx, env, impl, u, eff, rec, prefix)
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
	cr.SamplesNS, cr.CPUNS, cr.Digest = rec.seal()

	switch reason, skipped := SkipReason(err); {
	case skipped:
		cr.Status, cr.SkipReason = result.StatusSkipped, reason
		cr.SamplesNS, cr.CPUNS, cr.Digest = []int64{}, []int64{}, ""
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
	if pe, ok := p.(*spec.ParamError); ok {
		return pe
	}
	return fmt.Errorf("panic: %v\n%s", p, debug.Stack())
}

// execute is the body of one unit on its own goroutine: setup, digest, warmup, timed iterations.
func (s *session) execute(ctx context.Context, env *Env, impl Case, u unit, eff spec.Params, rec *recorder, prefix string) error {
	b, err := impl(ctx, env, eff)
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

	if u.c.Digest != nil {
		d, err := s.digest(ctx, env, impl, b, eff, u.raw.Digest(s.runner), u.c.Digest.Form)
		if err != nil {
			return err
		}
		rec.setDigest(d)
	}

	// Pacing waits come before each iteration's untimed Before, outside the timed region; steps
	// count the warmups first.
	warmup := s.spec.Profiles[s.profile].Warmup.For(u.c.Kind)
	for i := 0; i < warmup; i++ {
		if err := s.pace.wait(ctx, u.index, i); err != nil {
			return err
		}
		if err := once(ctx, b); err != nil {
			return fmt.Errorf("warmup %d: %w", i+1, err)
		}
		if err := env.detached.failure(); err != nil {
			return err
		}
	}

	fault := s.hooks.faultFor(u.c.ID)
	slow := s.hooks.slowdownFor(u.c.ID)
	counted := s.hooks.Count && u.c.Kind == "cpu"
	n := s.iters(u.c)
	for i := 0; i < n; i++ {
		if err := s.pace.wait(ctx, u.index, warmup+i); err != nil {
			return err
		}
		if b.Before != nil {
			if err := b.Before(ctx); err != nil {
				return fmt.Errorf("iteration %d: before: %w", i+1, err)
			}
		}
		if counted {
			count.Settle()
			count.Start()
		}
		c0 := measure.CPUTime()
		t0 := time.Now()
		err := b.Op(ctx)
		if slow > 0 && !counted {
			measure.Spin(time.Duration(slow * float64(time.Since(t0))))
		}
		if fault != "" && err == nil {
			err = inject(fault, env)
		}
		wall := time.Since(t0)
		c1 := measure.CPUTime()
		if counted {
			count.Stop(u.index, warmup+i)
			if slow > 0 && err == nil {
				err = count.SlowDown(slow, u.index, warmup+i)
			}
		}
		if err != nil {
			return fmt.Errorf("iteration %d: %w", i+1, err)
		}
		rec.add(wall.Nanoseconds(), max(c1-c0, 0))
		if wall > time.Second {
			fmt.Fprintf(s.log, "%s   iteration %d/%d: %s\n", prefix, i+1, n, wall.Round(time.Millisecond))
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
func (s *session) digest(ctx context.Context, env *Env, impl Case, b *Bench, eff, dp spec.Params, form string) (string, error) {
	if !dp.Equal(eff) {
		db, err := impl(ctx, env, dp)
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
	if form == spec.FormSHA256Concat {
		sum := sha256.Sum256(out)
		out = sum[:]
	}
	return hex.EncodeToString(out), nil
}

func inject(mode string, env *Env) error {
	switch mode {
	case FaultThrow:
		return errInjected
	case FaultHang:
		<-make(chan struct{}) // forever: only the case timeout ends this case
	case FaultReject:
		env.Go(func() { panic("BEE_BENCH_FAULT: injected panic in a detached goroutine") })
	}
	return nil
}

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
