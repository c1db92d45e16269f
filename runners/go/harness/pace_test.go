//go:build unix

package harness

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ethswarm-tools/bee-bench/runners/go/harness/plan"
)

// socketPair returns the runner's end of a socket pair as a bare descriptor (the pacer takes it
// over) and the engine's end as a connection with deadlines.
func socketPair(t *testing.T) (int, net.Conn) {
	t.Helper()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	f := os.NewFile(uintptr(fds[1]), "engine")
	engine, err := net.FileConn(f) // a duplicate of fds[1]
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { engine.Close() })
	return fds[0], engine
}

// returns fails the test unless wait returns within a few seconds.
func returns(t *testing.T, done <-chan error, what string) {
	t.Helper()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("%s: still blocked", what)
	}
}

func waitAsync(p *pacer, unit, step int) <-chan error {
	done := make(chan error, 1)
	go func() { done <- p.wait(context.Background(), unit, step) }()
	return done
}

func TestPacerTakesTurns(t *testing.T) {
	fd, engine := socketPair(t)
	p := newPacer(fd)
	if p == nil {
		t.Fatal("no pacer on an open descriptor")
	}
	lines := bufio.NewReader(engine)
	for _, at := range [][2]int{{0, 0}, {0, 1}, {0, 2}, {1, 0}} {
		done := waitAsync(p, at[0], at[1])
		engine.SetReadDeadline(time.Now().Add(5 * time.Second))
		line, err := lines.ReadString('\n')
		if want := fmt.Sprintf("ready %d %d\n", at[0], at[1]); err != nil || line != want {
			t.Fatalf("engine read %q (%v), want %q", line, err, want)
		}
		select {
		case <-done:
			t.Fatalf("ready %d %d: the runner went on before it was given the turn", at[0], at[1])
		case <-time.After(50 * time.Millisecond):
		}
		if _, err := engine.Write([]byte{'g'}); err != nil {
			t.Fatal(err)
		}
		returns(t, done, fmt.Sprintf("ready %d %d after the byte", at[0], at[1]))
	}

	// The engine goes away: pacing ends and the remaining iterations run without blocking.
	engine.Close()
	for step := 1; step < 4; step++ {
		returns(t, waitAsync(p, 1, step), "after the engine closed")
	}
	if p.f != nil {
		t.Error("pacing did not end")
	}
}

func TestPacingEndsAtEndOfFile(t *testing.T) {
	fd, engine := socketPair(t)
	p := newPacer(fd)
	done := waitAsync(p, 0, 0)
	engine.SetReadDeadline(time.Now().Add(5 * time.Second))
	lines := bufio.NewReader(engine)
	if line, err := lines.ReadString('\n'); err != nil || line != "ready 0 0\n" {
		t.Fatalf("engine read %q (%v)", line, err)
	}
	// The engine lets go without a byte: the runner reads end of file.
	if err := engine.(*net.UnixConn).CloseWrite(); err != nil {
		t.Fatal(err)
	}
	returns(t, done, "at end of file")
	for step := 1; step < 4; step++ {
		returns(t, waitAsync(p, 0, step), "after end of file")
	}
	// Nothing more was written, and the runner let go of its end.
	if rest, err := io.ReadAll(lines); err != nil || len(rest) != 0 {
		t.Fatalf("after end of file the engine read %q (%v), want nothing", rest, err)
	}
}

func TestPacerStaysQuietForAnAbandonedCase(t *testing.T) {
	// A case that ran past its timeout and was abandoned must not announce more iterations.
	fd, engine := socketPair(t)
	p := newPacer(fd)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	done := make(chan error, 1)
	go func() { done <- p.wait(ctx, 0, 1) }()
	select {
	case err := <-done:
		if err != context.Canceled {
			t.Fatalf("wait = %v, want the case's context error", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("wait blocked for an abandoned case")
	}
	engine.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
	if n, err := engine.Read(make([]byte, 16)); n > 0 || !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("engine read %d bytes (%v), want nothing", n, err)
	}
}

func TestPacerNeedsAnOpenDescriptor(t *testing.T) {
	if p := newPacer(math.MaxInt32); p != nil {
		t.Fatal("a pacer on a descriptor that is not open")
	}
	var p *pacer // no pacing: waits return at once
	if err := p.wait(context.Background(), 0, 0); err != nil {
		t.Fatal(err)
	}
}

// pacedUnits are a shard's units: numbered as in the full plan, so neither from 0 nor contiguous.
var pacedUnits = []int{4, 7, 9}

// pacedRun runs a plan of cpu.harness.noop, an unimplemented case and cpu.identity.create (with
// a digest), numbered pacedUnits, all three with the same fake op, iters timed iterations each,
// with BEE_BENCH_PACE_FD set to fd; note records the order of events.
func pacedRun(t *testing.T, fd int, iters int, timeoutS float64, note func(string)) harnessRun {
	t.Helper()
	out := filepath.Join(t.TempDir(), "r.json")
	var stderr bytes.Buffer
	noop := func(context.Context, *Env, plan.Params) (*Bench, error) {
		return &Bench{
			Before: func(context.Context) error { note("before"); return nil },
			Op:     func(context.Context) error { note("op"); return nil },
			Output: func() ([]byte, error) { return nil, nil },
		}, nil
	}
	p := param("one", 1)
	us := []unit{
		{"unit": pacedUnits[0], "id": "cpu.harness.noop", "param": p},
		{"unit": pacedUnits[1], "id": "cpu.ecdsa.sign", "param": p},
		{"unit": pacedUnits[2], "id": "cpu.identity.create", "param": p, "digest": map[string]any{"form": "sha256-concat", "param": p}},
	}
	code := Main([]string{"run", "--plan", writePlan(t, with(with(us, "iters", iters), "timeout_s", timeoutS)...), "--out", out}, Config{
		Runner: "go",
		Cases: func(*Node) (Registry, error) {
			return Registry{"cpu.harness.noop": noop, "cpu.identity.create": noop}, nil
		},
		Stderr: &stderr,
		Getenv: func(k string) string { return map[string]string{"BEE_BENCH_PACE_FD": strconv.Itoa(fd)}[k] },
	})
	r := harnessRun{code: code, stderr: stderr.String()}
	if code != ExitOK {
		t.Fatalf("exit %d\n%s", code, r.stderr)
	}
	r.res = readResult(t, out)
	return r
}

// engineLog is the test's engine: it records each line it reads, in order with the runner's own
// events, and grants the turn after hold.
type engineLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *engineLog) note(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, s)
}

func (l *engineLog) get() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string{}, l.lines...)
}

// serve answers each `ready` line after hold(line number), as the engine does: one byte per
// line, and a line that comes before the previous one was answered is noted as out of turn
// (the engine would take it for the runner's new position and owe it only one byte). stop
// ends serving after a last look for stray output.
func (l *engineLog) serve(engine net.Conn, hold func(n int) time.Duration) (stop func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		lines := bufio.NewReader(engine)
		for n := 0; ; n++ {
			line, err := lines.ReadString('\n')
			if err != nil {
				return
			}
			l.note(strings.TrimSuffix(line, "\n"))
			time.Sleep(hold(n))
			engine.SetReadDeadline(time.Now().Add(10 * time.Millisecond))
			if _, err := lines.Peek(1); err == nil {
				l.note("(out of turn)")
			}
			engine.SetReadDeadline(time.Time{})
			if _, err := engine.Write([]byte{'g'}); err != nil {
				return
			}
		}
	}()
	return func() {
		time.Sleep(100 * time.Millisecond) // anything the runner wrote after its last turn shows
		engine.Close()
		<-done
	}
}

func TestPacedRun(t *testing.T) {
	const iters, warmup = 3, 1
	const hold = 20 * time.Millisecond

	fd, engine := socketPair(t)
	var log engineLog
	stop := log.serve(engine, func(int) time.Duration { return hold })
	r := pacedRun(t, fd, iters, 60, log.note)
	stop()

	// The lines name the plan's unit numbers: noop 4, the unimplemented case 7 (skipped, never
	// paced), identity 9. Each turn is announced before the iteration's Before, warmups first;
	// identity's untimed digest evaluation is no iteration and is not paced.
	var want []string
	for _, unit := range []int{pacedUnits[0], pacedUnits[2]} {
		if unit == pacedUnits[2] {
			want = append(want, "before", "op")
		}
		for step := 0; step < warmup+iters; step++ {
			want = append(want, fmt.Sprintf("ready %d %d", unit, step), "before", "op")
		}
	}
	if got := log.get(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for i, id := range []string{"cpu.harness.noop", "cpu.ecdsa.sign", "cpu.identity.create"} {
		c := r.res.Cases[i]
		if c.ID != id {
			t.Fatalf("case %d is %s, want %s", i, c.ID, id)
		}
		if id == "cpu.ecdsa.sign" {
			if c.Status != "skipped" {
				t.Errorf("%s: %s", id, c.Status)
			}
			continue
		}
		if c.Status != "ok" || len(c.SamplesNS) != iters {
			t.Errorf("%s: %s with %d samples (%s)", id, c.Status, len(c.SamplesNS), c.Error)
		}
		// The wait for the turn is outside the timed region.
		for _, ns := range c.SamplesNS {
			if time.Duration(ns) >= hold {
				t.Errorf("%s: sample %s includes the wait for the turn (%s)", id, time.Duration(ns), hold)
			}
		}
	}
}

func TestPacedRunGoesOnWhenTheEngineLetsGo(t *testing.T) {
	fd, engine := socketPair(t)
	type read struct {
		lines []string
		err   error
	}
	got := make(chan read, 1)
	go func() {
		var r read
		lines := bufio.NewReader(engine)
		for {
			line, err := lines.ReadString('\n')
			if err != nil {
				r.err = err
				got <- r
				return
			}
			r.lines = append(r.lines, line)
			if len(r.lines) == 2 {
				engine.(*net.UnixConn).CloseWrite() // no byte for the second turn: end of file
			} else {
				engine.Write([]byte{'g'})
			}
		}
	}()
	r := pacedRun(t, fd, 3, 60, func(string) {})
	engine.SetReadDeadline(time.Now().Add(5 * time.Second))
	for _, c := range r.res.Cases {
		if c.Status != "skipped" && (c.Status != "ok" || len(c.SamplesNS) != 3) {
			t.Errorf("%s: %s with %d samples (%s)", c.ID, c.Status, len(c.SamplesNS), c.Error)
		}
	}
	// End of file, not the deadline: the runner closed its end when pacing ended, having written
	// nothing after the turn it did not get.
	e := <-got
	if strings.Join(e.lines, "") != "ready 4 0\nready 4 1\n" || e.err != io.EOF {
		t.Fatalf("engine read %q, then %v", e.lines, e.err)
	}
}

func TestCaseAbandonedWhileWaitingForItsTurn(t *testing.T) {
	// The engine holds the first turn past the case timeout. The timed-out case's goroutine is
	// still blocked in its read; the byte is its own, and once it has it, it stops instead of
	// announcing more. The next unit's exchanges follow in order.
	fd, engine := socketPair(t)
	var log engineLog
	stop := log.serve(engine, func(n int) time.Duration {
		if n == 0 {
			return 1500 * time.Millisecond
		}
		return 0
	})
	r := pacedRun(t, fd, 3, 1, func(string) {})
	stop()

	if c := r.res.Cases[0]; c.Status != "failed" || !strings.Contains(c.Error, "timed out") {
		t.Errorf("noop: %s %q, want timed out", c.Status, c.Error)
	}
	if c := r.res.Cases[2]; c.Status != "ok" || len(c.SamplesNS) != 3 {
		t.Errorf("identity: %s with %d samples (%s)", c.Status, len(c.SamplesNS), c.Error)
	}
	want := []string{"ready 4 0"}
	for step := 0; step < r.res.Cases[2].Warmup+3; step++ {
		want = append(want, fmt.Sprintf("ready 9 %d", step))
	}
	if got := log.get(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("engine read:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
