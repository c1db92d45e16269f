// Tests of the harness: broken cases, fault hooks, iterations and slowdown from the plan, pacing, usage errors.

package harness

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethswarm-tools/bee-bench/runners/go/harness/plan"
	"github.com/ethswarm-tools/bee-bench/runners/go/harness/result"
)

// unit is one unit of a test plan, as its JSON fields.
type unit map[string]any

// writePlan writes a go plan of units, filling in what a unit leaves out: numbered from 0, kind
// from the id, no digest, work.ops = param count, one warmup, three iterations, 60 s.
func writePlan(t *testing.T, units ...unit) string {
	t.Helper()
	for i, u := range units {
		id := u["id"].(string)
		param, _ := u["param"].(map[string]any)
		defaults := unit{"unit": i, "kind": id[:3], "digest": nil, "work": map[string]any{"ops": param["count"]},
			"warmup": 1, "iters": 3, "timeout_s": 60}
		for k, v := range defaults {
			if _, ok := u[k]; !ok {
				u[k] = v
			}
		}
	}
	data, err := json.Marshal(map[string]any{
		"schema": "bee-bench/plan@1", "runner": "go", "profile": "quick", "spec_hash": strings.Repeat("5e", 32),
		"fixtures": map[string]any{"data_label": "bee-bench/fixture", "key_label": "bee-bench/key", "digest_label": "bee-bench/digest", "chunk_payload_bytes": 4096},
		"units":    units,
	})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "plan.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func param(label string, count int) map[string]any {
	return map[string]any{"label": label, "count": count}
}

// testUnits are the units of the fake registry, one per case.
func testUnits() []unit {
	us := []unit{
		{"id": "cpu.t.ok", "param": param("ok", 6), "digest": map[string]any{"form": "sha256-concat", "param": param("ok", 4)}},
		{"id": "cpu.t.value", "param": param("v", 1), "digest": map[string]any{"form": "value", "param": param("v", 1)}},
	}
	for _, id := range []string{"panic", "error", "hang", "detached", "skip", "missing", "param"} {
		us = append(us, unit{"id": "cpu.t." + id, "param": param(id[:1], 1)})
	}
	return append(us, unit{"id": "net.t.one", "param": param("n", 1)}, unit{"id": "cpu.t.peek", "param": param("k", 1)})
}

// only picks the test units with the given ids, renumbered from 0.
func only(ids ...string) []unit {
	var out []unit
	for _, u := range testUnits() {
		if slices.Contains(ids, u["id"].(string)) {
			out = append(out, u)
		}
	}
	return out
}

// with sets field k to v in every unit.
func with(us []unit, k string, v any) []unit {
	for _, u := range us {
		u[k] = v
	}
	return us
}

// fakeCases is a registry of well- and badly-behaved cases.
func fakeCases(t *testing.T, out string) Registry {
	iter := func(fail func(i int) error) Case {
		return func(context.Context, *Env, plan.Params) (*Bench, error) {
			i := 0
			return &Bench{Op: func(context.Context) error { i++; return fail(i) }}, nil
		}
	}
	return Registry{
		"cpu.t.ok": func(_ context.Context, env *Env, p plan.Params) (*Bench, error) {
			n := p.Int("count")
			out := make([]byte, n)
			return &Bench{
				Op: func(context.Context) error {
					for i := range out {
						out[i] = byte(i)
					}
					return nil
				},
				Output: func() ([]byte, error) { return out, nil },
			}, nil
		},
		"cpu.t.value": func(context.Context, *Env, plan.Params) (*Bench, error) {
			return &Bench{Op: func(context.Context) error { return nil }, Output: func() ([]byte, error) { return []byte{0xab, 0xcd}, nil }}, nil
		},
		"cpu.t.panic": func(context.Context, *Env, plan.Params) (*Bench, error) { panic("boom in setup") },
		// warmup is i=1; timed iterations are 2..: the second timed iteration fails.
		"cpu.t.error": iter(func(i int) error {
			if i == 3 {
				return errors.New("broken op")
			}
			return nil
		}),
		"cpu.t.hang": iter(func(i int) error {
			if i == 3 {
				select {} // hangs on the second timed iteration
			}
			return nil
		}),
		"cpu.t.detached": func(_ context.Context, env *Env, _ plan.Params) (*Bench, error) {
			return &Bench{Op: func(context.Context) error {
				env.Go(func() { panic("boom in a detached goroutine") })
				return nil
			}}, nil
		},
		"cpu.t.skip": func(context.Context, *Env, plan.Params) (*Bench, error) {
			return nil, Skip("the client lacks this")
		},
		"cpu.t.param": func(_ context.Context, _ *Env, p plan.Params) (*Bench, error) {
			p.Int("absent")
			return nil, nil
		},
		"net.t.one": func(context.Context, *Env, plan.Params) (*Bench, error) {
			t.Error("a net case ran without a node")
			return nil, nil
		},
		// peek checks, during its setup, the result file written after the previous cases.
		"cpu.t.peek": func(context.Context, *Env, plan.Params) (*Bench, error) {
			r := readResult(t, out)
			if r.FinishedAt != nil {
				return nil, errors.New("finished_at set before the run ended")
			}
			if len(r.Cases) != 10 {
				return nil, errors.New("the result file does not hold the cases before this one")
			}
			return &Bench{Op: func(context.Context) error { return nil }}, nil
		},
	}
}

func readResult(t *testing.T, path string) *result.Result {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r result.Result
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("result file is not JSON: %v", err)
	}
	return &r
}

type harnessRun struct {
	code           int
	stdout, stderr string
	res            *result.Result
}

// runMain runs a plan of units against the fake registry.
func runMain(t *testing.T, env map[string]string, units []unit) harnessRun {
	t.Helper()
	out := filepath.Join(t.TempDir(), "res", "result.json")
	var stdout, stderr bytes.Buffer
	code := Main([]string{"run", "--plan", writePlan(t, units...), "--out", out}, Config{
		Runner: "go",
		Client: result.Client{Name: "fake", Version: "v0", Source: "path"},
		Cases:  func(*Node) (Registry, error) { return fakeCases(t, out), nil },
		Stdout: &stdout, Stderr: &stderr,
		Getenv: func(k string) string { return env[k] },
	})
	r := harnessRun{code: code, stdout: stdout.String(), stderr: stderr.String()}
	if code == ExitOK {
		r.res = readResult(t, out)
		entries, _ := os.ReadDir(filepath.Dir(out))
		if len(entries) != 1 {
			t.Errorf("the result folder holds %d files, want only the result (no temporaries)", len(entries))
		}
	}
	return r
}

func byID(r *result.Result, id string) *result.Case {
	for _, c := range r.Cases {
		if c.ID == id {
			return c
		}
	}
	return nil
}

func TestBrokenCasesDoNotLoseTheOthers(t *testing.T) {
	r := runMain(t, nil, with(testUnits(), "timeout_s", 0.5))
	if r.code != ExitOK {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	res := r.res
	if res.Schema != result.SchemaID || res.Runner != "go" || res.FinishedAt == nil || res.Bee != nil || res.AllocCounter != nil {
		t.Fatalf("top level: %+v", res)
	}
	if res.Spec.Hash != strings.Repeat("5e", 32) || res.Spec.Profile != "quick" {
		t.Fatalf("spec ref: %+v", res.Spec)
	}
	if len(res.Cases) != 11 {
		t.Fatalf("%d case results, want 11", len(res.Cases))
	}
	for i, c := range res.Cases {
		if want := testUnits()[i]["id"]; c.ID != want || c.Allocs != nil || c.AllocBytes != nil {
			t.Errorf("case %d: %s (allocs %v), want %s in plan order, no allocs", i, c.ID, c.Allocs, want)
		}
	}
	want := map[string]struct {
		status  string
		samples int
		msg     string
	}{
		"cpu.t.ok":       {"ok", 3, ""},
		"cpu.t.value":    {"ok", 3, ""},
		"cpu.t.panic":    {"failed", 0, "boom in setup"},
		"cpu.t.error":    {"failed", 1, "iteration 2: broken op"},
		"cpu.t.hang":     {"failed", 1, "timed out after 500ms"},
		"cpu.t.detached": {"failed", -1, "boom in a detached goroutine"}, // noticed after 1..3 iterations
		"cpu.t.skip":     {"skipped", 0, "the client lacks this"},
		"cpu.t.missing":  {"skipped", 0, "not implemented by the go runner"},
		"cpu.t.param":    {"failed", 0, `param "absent": missing`},
		"net.t.one":      {"skipped", 0, NoNodeReason},
		"cpu.t.peek":     {"ok", 3, ""},
	}
	for id, w := range want {
		c := byID(res, id)
		if c == nil {
			t.Errorf("%s: missing", id)
			continue
		}
		msg := c.Error + c.SkipReason
		n := len(c.SamplesNS)
		if w.samples == -1 && n >= 1 && n <= 3 {
			n = -1
		}
		if c.Status != w.status || n != w.samples || len(c.CPUNS) != len(c.SamplesNS) || !strings.Contains(msg, w.msg) {
			t.Errorf("%s: %s with %d samples (%q), want %s with %d (%q)", id, c.Status, len(c.SamplesNS), msg, w.status, w.samples, w.msg)
		}
	}
	ok := byID(res, "cpu.t.ok")
	sum := sha256.Sum256([]byte{0, 1, 2, 3}) // the digest param has count 4, the unit's 6
	if ok.Digest != hex.EncodeToString(sum[:]) {
		t.Errorf("sha256-concat digest = %s", ok.Digest)
	}
	if ok.Param.Int("count") != 6 || *ok.Work.Ops != 6 || ok.Work.Bytes != nil || ok.Warmup != 1 {
		t.Errorf("ok case param, work, warmup: %+v %+v %d", ok.Param, ok.Work, ok.Warmup)
	}
	if ok.PeakRSSBytes == nil || *ok.PeakRSSBytes <= 0 {
		t.Error("no peak RSS")
	}
	if v := byID(res, "cpu.t.value"); v.Digest != "abcd" {
		t.Errorf("value digest = %q", v.Digest)
	}
	if !strings.Contains(r.stderr, "[5/11] cpu.t.hang h ...") || !strings.Contains(r.stderr, "[1/11] cpu.t.ok ok -> ok") {
		t.Errorf("progress lines:\n%s", r.stderr)
	}
}

func TestFaultHooks(t *testing.T) {
	for mode, msg := range map[string]string{
		"throw":  "injected error",
		"hang":   "timed out",
		"reject": "injected panic in a detached goroutine",
	} {
		t.Run(mode, func(t *testing.T) {
			us := with(only("cpu.t.ok", "cpu.t.value"), "timeout_s", 0.5)
			us[0]["fault"] = mode
			r := runMain(t, nil, us)
			if r.code != ExitOK {
				t.Fatalf("exit %d\n%s", r.code, r.stderr)
			}
			ok, v := byID(r.res, "cpu.t.ok"), byID(r.res, "cpu.t.value")
			if ok.Status != "failed" || !strings.Contains(ok.Error, msg) {
				t.Errorf("faulted case: %s %q", ok.Status, ok.Error)
			}
			if v.Status != "ok" || len(v.SamplesNS) != 3 {
				t.Errorf("the next case must run normally: %+v", v)
			}
		})
	}
}

func TestItersWarmupAndSlowdownFromThePlan(t *testing.T) {
	// cpu.t.ok's op takes well under a microsecond; a slowdown of 0 must leave it alone.
	us := only("cpu.t.ok")
	us[0]["iters"], us[0]["warmup"], us[0]["slowdown"] = 7, 2, 0
	r := runMain(t, nil, us)
	if r.code != ExitOK || len(r.res.Cases[0].SamplesNS) != 7 || r.res.Cases[0].Warmup != 2 {
		t.Fatalf("exit %d, %+v", r.code, r.res)
	}
}

func TestPaceMode(t *testing.T) {
	for v, fd := range map[string]int{"": -1, "0": 0, "3": 3, "017": 17} {
		m, err := ParseModes(func(k string) string { return map[string]string{"BEE_BENCH_PACE_FD": v}[k] })
		if err != nil || m.Pace != (fd >= 0) || (m.Pace && m.PaceFD != fd) {
			t.Errorf("BEE_BENCH_PACE_FD=%q: %+v, %v", v, m, err)
		}
	}
	for _, v := range []string{"-1", "+3", " 3", "3.0", "fd3", "99999999999"} {
		_, err := ParseModes(func(k string) string { return map[string]string{"BEE_BENCH_PACE_FD": v}[k] })
		var ue *UsageError
		if !errors.As(err, &ue) || ue.Flag != "BEE_BENCH_PACE_FD" || !strings.Contains(err.Error(), "BEE_BENCH_PACE_FD") {
			t.Errorf("BEE_BENCH_PACE_FD=%q: %v, want a usage error naming the variable", v, err)
		}
	}
}

func TestSlowdownSpinsInsideTheTimedRegion(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.json")
	var stderr bytes.Buffer
	op := 2 * time.Millisecond
	us := only("cpu.t.value")
	us[0]["slowdown"] = 1.5
	code := Main([]string{"run", "--plan", writePlan(t, us...), "--out", out}, Config{
		Runner: "go",
		Cases: func(*Node) (Registry, error) {
			return Registry{"cpu.t.value": func(context.Context, *Env, plan.Params) (*Bench, error) {
				return &Bench{
					Op:     func(context.Context) error { time.Sleep(op); return nil },
					Output: func() ([]byte, error) { return []byte{1}, nil },
				}, nil
			}}, nil
		},
		Stderr: &stderr,
		Getenv: func(string) string { return "" },
	})
	if code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	c := readResult(t, out).Cases[0]
	var cpu time.Duration
	for i, ns := range c.SamplesNS {
		if time.Duration(ns) < op*5/2 { // op + 1.5 x op
			t.Errorf("sample %d = %s, want >= 2.5 x %s", i, time.Duration(ns), op)
		}
		cpu += time.Duration(c.CPUNS[i])
	}
	// The sleep costs no CPU, the 3 x 3 ms of spinning does (a share of it on a busy machine).
	if cpu < 2*time.Millisecond {
		t.Errorf("cpu over the samples = %s, want the spin to show", cpu)
	}
}

func TestUsageErrorsExit2(t *testing.T) {
	planPath := writePlan(t, only("cpu.t.ok")...)
	dir := t.TempDir()
	badPlan := filepath.Join(dir, "bad.json")
	os.WriteFile(badPlan, []byte(strings.Replace(readText(t, planPath), `"iters":3`, `"iters":0`, 1)), 0o644)
	jsPlan := filepath.Join(dir, "js.json")
	os.WriteFile(jsPlan, []byte(strings.Replace(readText(t, planPath), `"runner":"go"`, `"runner":"js"`, 1)), 0o644)
	out := filepath.Join(dir, "r.json")
	run := func(args ...string) []string {
		return append([]string{"run", "--plan", planPath, "--out", out}, args...)
	}
	const usePlan = "pass --plan FILE, made by `bee-bench plan --runner go`"
	cases := []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{"no command", nil, nil, "usage"},
		{"unknown command", []string{"walk"}, nil, "unknown command"},
		{"no out", []string{"run", "--plan", planPath}, nil, "--out"},
		{"no plan", []string{"run", "--out", out}, nil, "--plan: required"},
		{"spec", []string{"run", "--spec", "spec/bench-spec.json", "--out", out}, nil, "--spec: the runner no longer reads the spec: " + usePlan},
		{"spec=", run("--spec=spec/bench-spec.json"), nil, "--spec: " + "the runner no longer reads the spec"},
		{"case", run("--case", "cpu.*"), nil, "--case: the runner no longer reads the spec"},
		{"profile", run("-profile", "full"), nil, "--profile: the runner no longer reads the spec"},
		{"large", run("--large"), nil, "--large: the runner no longer reads the spec"},
		{"unknown flag", run("--fast"), nil, "fast"},
		{"url without batch", run("--bee-url", "http://127.0.0.1:1633"), nil, "--bee-url/--batch-id"},
		{"bad batch", run("--bee-url", "http://127.0.0.1:1633", "--batch-id", "xyz"), nil, "--batch-id"},
		{"bad url", run("--bee-url", "localhost:1633", "--batch-id", strings.Repeat("ab", 32)), nil, "--bee-url"},
		{"missing plan file", []string{"run", "--plan", planPath + ".nope", "--out", out}, nil, "--plan: open"},
		{"bad plan", []string{"run", "--plan", badPlan, "--out", out}, nil, "bad plan " + badPlan + ": units[0].iters: must be a positive integer"},
		{"plan for another runner", []string{"run", "--plan", jsPlan, "--out", out}, nil, "runner: the plan is for the js runner"},
		{"bad pace mode", run(), map[string]string{"BEE_BENCH_PACE_FD": "-1"}, "BEE_BENCH_PACE_FD"},
		{"bad count mode", run(), map[string]string{"BEE_BENCH_COUNT": "yes"}, "BEE_BENCH_COUNT: must be 1 or 0"},
		{"bad allocs mode", run(), map[string]string{"BEE_BENCH_ALLOCS": "on"}, "BEE_BENCH_ALLOCS: must be 1 or 0"},
		{"count and allocs", run(), map[string]string{"BEE_BENCH_COUNT": "1", "BEE_BENCH_ALLOCS": "1"}, "BEE_BENCH_ALLOCS: not together with BEE_BENCH_COUNT=1"},
	}
	for _, c := range cases {
		var stderr bytes.Buffer
		code := Main(c.args, Config{
			Runner: "go",
			Cases:  func(*Node) (Registry, error) { return Registry{}, nil },
			Stdout: &bytes.Buffer{}, Stderr: &stderr,
			Getenv: func(k string) string { return c.env[k] },
		})
		if code != ExitUsage || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%s: exit %d, stderr %q; want 2 naming %q", c.name, code, stderr.String(), c.want)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a usage error must not write a result")
	}
}

func readText(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestNodeIsPassedAndNetCasesRun(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.json")
	var got *Node
	code := Main([]string{"run", "--plan", writePlan(t, with(only("net.t.one"), "timeout_s", 30)...), "--out", out,
		"--bee-url", "http://127.0.0.1:1633/", "--batch-id", "0x" + strings.Repeat("AB", 32)}, Config{
		Runner: "go",
		Cases: func(n *Node) (Registry, error) {
			got = n
			return Registry{"net.t.one": func(_ context.Context, env *Env, _ plan.Params) (*Bench, error) {
				if first, second := env.Salt(), env.Salt(); env.Node == nil || first == second {
					return nil, errors.New("no node, or salts repeat")
				}
				if env.Node.CallTimeout != 15*time.Second {
					return nil, fmt.Errorf("calls bounded by %s, want half the unit's 30 s", env.Node.CallTimeout)
				}
				return &Bench{Op: func(context.Context) error { return nil }}, nil
			}}, nil
		},
		BeeVersion: func(context.Context, *Node) (string, error) { return "2.8.0-test", nil },
		Stderr:     &bytes.Buffer{},
		Getenv:     func(string) string { return "" },
	})
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	if got == nil || got.URL != "http://127.0.0.1:1633" || got.BatchID != strings.Repeat("ab", 32) {
		t.Fatalf("node = %+v", got)
	}
	r := readResult(t, out)
	if r.Bee == nil || r.Bee.Version != "2.8.0-test" || r.Cases[0].Status != "ok" || r.Cases[0].Warmup != 1 {
		t.Fatalf("result: %+v %+v", r.Bee, r.Cases[0])
	}
}

func TestInfo(t *testing.T) {
	var stdout bytes.Buffer
	code := Main([]string{"info"}, Config{Runner: "go", Client: result.Client{Name: "n", Version: "v1", Source: "registry"}, Stdout: &stdout})
	var info Info
	if code != ExitOK || json.Unmarshal(stdout.Bytes(), &info) != nil || info.Runner != "go" || info.Client.Version != "v1" || info.Host.CPUs < 1 || info.Runtime == "" {
		t.Fatalf("exit %d, %s", code, stdout.String())
	}
}

func TestParallelRecoversPanics(t *testing.T) {
	err := Parallel(4, func(i int) error {
		if i == 2 {
			panic("worker down")
		}
		return nil
	})
	if err == nil || !strings.Contains(err.Error(), "worker down") {
		t.Fatalf("err = %v", err)
	}
	if err := Parallel(3, func(int) error { return nil }); err != nil {
		t.Fatal(err)
	}
}

func TestCountMode(t *testing.T) {
	for v, want := range map[string]bool{"": false, "0": false, "1": true} {
		m, err := ParseModes(func(k string) string { return map[string]string{"BEE_BENCH_COUNT": v}[k] })
		if err != nil || m.Count != want {
			t.Errorf("BEE_BENCH_COUNT=%q: %+v, %v", v, m, err)
		}
	}
}
