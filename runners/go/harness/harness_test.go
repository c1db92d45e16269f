package harness

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethswarm-tools/bee-bench/runners/go/harness/result"
	"github.com/ethswarm-tools/bee-bench/runners/go/harness/spec"
)

// The real spec, relative to this package (runners/go/harness).
const realSpec = "../../../spec/bench-spec.json"

func TestLoadsTheRealSpec(t *testing.T) {
	s, err := spec.Load(realSpec)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Cases) != 27 {
		t.Fatalf("%d cases, want 27", len(s.Cases))
	}
	for i := range s.Cases {
		c := &s.Cases[i]
		for _, prof := range spec.Profiles {
			for _, raw := range c.Params[prof] {
				eff := raw.Effective("go")
				if eff.Label() == "" {
					t.Errorf("%s %s: no label", c.ID, prof)
				}
				if len(c.Work.Ops) > 0 {
					if _, ok := eff.Product(c.Work.Ops); !ok {
						t.Errorf("%s %s %s: no work.ops", c.ID, prof, eff.Label())
					}
				}
				if c.Digest != nil {
					raw.Digest("go") // must resolve
				}
			}
		}
	}
}

func TestSelectsFromTheRealSpec(t *testing.T) {
	s, err := spec.Load(realSpec)
	if err != nil {
		t.Fatal(err)
	}
	sel, err := s.Select([]string{"cpu.*"})
	if err != nil || len(sel) != 11 {
		t.Fatalf("cpu.* selects %d cases (%v), want 11", len(sel), err)
	}
}

// testCases are the cases of the test spec: id, digest, and the param list of both profiles.
var testCases = [][3]string{
	{"cpu.t.ok", `{"doc": "x", "form": "sha256-concat"}`, `{"label": "ok", "count": 10, "per_runner": {"go": {"count": 6}}, "digest_with": {"count": 4}}`},
	{"cpu.t.value", `{"doc": "x", "form": "value"}`, `{"label": "v", "count": 1}, {"label": "huge", "count": 2, "large": true}`},
	{"cpu.t.panic", `null`, `{"label": "p", "count": 1}`},
	{"cpu.t.error", `null`, `{"label": "e", "count": 1}`},
	{"cpu.t.hang", `null`, `{"label": "h", "count": 1}`},
	{"cpu.t.detached", `null`, `{"label": "d", "count": 1}`},
	{"cpu.t.skip", `null`, `{"label": "s", "count": 1}`},
	{"cpu.t.missing", `null`, `{"label": "m", "count": 1}`},
	{"cpu.t.param", `null`, `{"label": "noparam", "count": 1}`},
	{"net.t.one", `null`, `{"label": "n", "count": 1}`},
	{"cpu.t.peek", `null`, `{"label": "k", "count": 1}`},
}

func writeTestSpec(t *testing.T) string {
	t.Helper()
	var cases []string
	for _, c := range testCases {
		cases = append(cases, `{"id": "`+c[0]+`", "kind": "`+c[0][:3]+`", "group": "g", "doc": "test case", "work": {"ops": ["count"]}, "digest": `+
			c[1]+`, "params": {"quick": [`+c[2]+`], "full": [`+c[2]+`]}}`)
	}
	text := `{
  "schema": "bee-bench/spec@1",
  "profiles": {
    "quick": {"iters": 3, "warmup": {"cpu": 1, "net": 1}, "case_timeout_s": 60},
    "full": {"iters": 4, "warmup": {"cpu": 0, "net": 0}, "case_timeout_s": 60}
  },
  "fixtures": {"data_label": "bee-bench/fixture", "key_label": "bee-bench/key", "digest_label": "bee-bench/digest", "chunk_payload_bytes": 4096},
  "groups": [{"id": "g", "title": "G", "note": ""}],
  "cases": [` + strings.Join(cases, ",\n") + `]
}`
	path := filepath.Join(t.TempDir(), "spec.json")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// fakeCases is a registry of well- and badly-behaved cases.
func fakeCases(t *testing.T, out string) Registry {
	iter := func(fail func(i int) error) Case {
		return func(context.Context, *Env, spec.Params) (*Bench, error) {
			i := 0
			return &Bench{Op: func(context.Context) error { i++; return fail(i) }}, nil
		}
	}
	return Registry{
		"cpu.t.ok": func(_ context.Context, env *Env, p spec.Params) (*Bench, error) {
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
		"cpu.t.value": func(context.Context, *Env, spec.Params) (*Bench, error) {
			return &Bench{Op: func(context.Context) error { return nil }, Output: func() ([]byte, error) { return []byte{0xab, 0xcd}, nil }}, nil
		},
		"cpu.t.panic": func(context.Context, *Env, spec.Params) (*Bench, error) { panic("boom in setup") },
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
		"cpu.t.detached": func(_ context.Context, env *Env, _ spec.Params) (*Bench, error) {
			return &Bench{Op: func(context.Context) error {
				env.Go(func() { panic("boom in a detached goroutine") })
				return nil
			}}, nil
		},
		"cpu.t.skip": func(context.Context, *Env, spec.Params) (*Bench, error) {
			return nil, Skip("the client lacks this")
		},
		"cpu.t.param": func(_ context.Context, _ *Env, p spec.Params) (*Bench, error) {
			p.Int("absent")
			return nil, nil
		},
		"net.t.one": func(context.Context, *Env, spec.Params) (*Bench, error) {
			t.Error("a net case ran without a node")
			return nil, nil
		},
		// peek checks, during its setup, the result file written after the previous cases.
		"cpu.t.peek": func(context.Context, *Env, spec.Params) (*Bench, error) {
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

func runMain(t *testing.T, env map[string]string, args ...string) harnessRun {
	t.Helper()
	out := filepath.Join(t.TempDir(), "res", "result.json")
	var stdout, stderr bytes.Buffer
	full := append([]string{"run", "--spec", writeTestSpec(t), "--out", out}, args...)
	if len(args) > 0 && args[0] == "raw" {
		full = args[1:]
	}
	code := Main(full, Config{
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
	r := runMain(t, map[string]string{"BEE_BENCH_CASE_TIMEOUT_S": "0.5"})
	if r.code != ExitOK {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	res := r.res
	if res.Schema != result.SchemaID || res.Runner != "go" || res.FinishedAt == nil || res.Bee != nil {
		t.Fatalf("top level: %+v", res)
	}
	if len(res.Cases) != 11 { // the large param is not run without --large
		t.Fatalf("%d case results, want 11", len(res.Cases))
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
	sum := sha256.Sum256([]byte{0, 1, 2, 3}) // the digest param has count 4, the go param 6
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

func TestLargeParamsRunOnlyWithLarge(t *testing.T) {
	r := runMain(t, nil, "--case", "cpu.t.value", "--large", "--profile", "full")
	if r.code != ExitOK || len(r.res.Cases) != 2 || r.res.Cases[1].Param.Label() != "huge" {
		t.Fatalf("exit %d, %d cases\n%s", r.code, len(r.res.Cases), r.stderr)
	}
	if r.res.Spec.Profile != "full" || len(r.res.Cases[0].SamplesNS) != 4 || r.res.Cases[0].Warmup != 0 {
		t.Fatalf("full profile: %+v", r.res.Cases[0])
	}
}

func TestFaultHooks(t *testing.T) {
	for mode, msg := range map[string]string{
		"throw":  "injected error",
		"hang":   "timed out",
		"reject": "injected panic in a detached goroutine",
	} {
		t.Run(mode, func(t *testing.T) {
			r := runMain(t, map[string]string{"BEE_BENCH_FAULT": "cpu.t.o*:" + mode, "BEE_BENCH_CASE_TIMEOUT_S": "0.5"},
				"--case", "cpu.t.ok", "--case", "cpu.t.value")
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

func TestItersAndSlowdownHooks(t *testing.T) {
	// cpu.t.ok's op takes well under a microsecond; a slowdown of 0 must leave it alone and
	// BEE_BENCH_ITERS must set the count.
	r := runMain(t, map[string]string{"BEE_BENCH_ITERS": "7", "BEE_BENCH_SLOWDOWN": "cpu.t.ok:0"}, "--case", "cpu.t.ok")
	if r.code != ExitOK || len(r.res.Cases[0].SamplesNS) != 7 {
		t.Fatalf("exit %d, %+v", r.code, r.res)
	}
}

func TestPaceHook(t *testing.T) {
	for v, fd := range map[string]int{"": -1, "0": 0, "3": 3, "017": 17} {
		h, err := ParseHooks(func(k string) string { return map[string]string{"BEE_BENCH_PACE_FD": v}[k] })
		if err != nil || h.Pace != (fd >= 0) || (h.Pace && h.PaceFD != fd) {
			t.Errorf("BEE_BENCH_PACE_FD=%q: %+v, %v", v, h, err)
		}
	}
	for _, v := range []string{"-1", "+3", " 3", "3.0", "fd3", "99999999999"} {
		_, err := ParseHooks(func(k string) string { return map[string]string{"BEE_BENCH_PACE_FD": v}[k] })
		var ue *spec.UsageError
		if !errors.As(err, &ue) || ue.Flag != "BEE_BENCH_PACE_FD" || !strings.Contains(err.Error(), "BEE_BENCH_PACE_FD") {
			t.Errorf("BEE_BENCH_PACE_FD=%q: %v, want a usage error naming the variable", v, err)
		}
	}
}

func TestSlowdownSpinsInsideTheTimedRegion(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.json")
	var stderr bytes.Buffer
	op := 2 * time.Millisecond
	code := Main([]string{"run", "--spec", writeTestSpec(t), "--case", "cpu.t.value", "--out", out}, Config{
		Runner: "go",
		Cases: func(*Node) (Registry, error) {
			return Registry{"cpu.t.value": func(context.Context, *Env, spec.Params) (*Bench, error) {
				return &Bench{
					Op:     func(context.Context) error { time.Sleep(op); return nil },
					Output: func() ([]byte, error) { return []byte{1}, nil },
				}, nil
			}}, nil
		},
		Stderr: &stderr,
		Getenv: func(k string) string { return map[string]string{"BEE_BENCH_SLOWDOWN": "cpu.t.*:1.5"}[k] },
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
	specPath := writeTestSpec(t)
	badSpec := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(badSpec, []byte(`{"schema": "bee-bench/spec@1", "profiles": {}}`), 0o644)
	out := filepath.Join(t.TempDir(), "r.json")
	cases := []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{"no command", nil, nil, "usage"},
		{"unknown command", []string{"walk"}, nil, "unknown command"},
		{"no out", []string{"run", "--spec", specPath}, nil, "--out"},
		{"no spec", []string{"run", "--out", out}, nil, "--spec"},
		{"bad profile", []string{"run", "--spec", specPath, "--out", out, "--profile", "slow"}, nil, "--profile"},
		{"unknown flag", []string{"run", "--spec", specPath, "--out", out, "--fast"}, nil, "fast"},
		{"glob matches nothing", []string{"run", "--spec", specPath, "--out", out, "--case", "cpu.nope.*"}, nil, "--case"},
		{"url without batch", []string{"run", "--spec", specPath, "--out", out, "--bee-url", "http://127.0.0.1:1633"}, nil, "--bee-url/--batch-id"},
		{"bad batch", []string{"run", "--spec", specPath, "--out", out, "--bee-url", "http://127.0.0.1:1633", "--batch-id", "xyz"}, nil, "--batch-id"},
		{"bad url", []string{"run", "--spec", specPath, "--out", out, "--bee-url", "localhost:1633", "--batch-id", strings.Repeat("ab", 32)}, nil, "--bee-url"},
		{"missing spec file", []string{"run", "--spec", specPath + ".nope", "--out", out}, nil, "--spec"},
		{"bad spec", []string{"run", "--spec", badSpec, "--out", out}, nil, "profiles.quick"},
		{"bad fault hook", []string{"run", "--spec", specPath, "--out", out}, map[string]string{"BEE_BENCH_FAULT": "cpu.*:explode"}, "BEE_BENCH_FAULT"},
		{"bad iters hook", []string{"run", "--spec", specPath, "--out", out}, map[string]string{"BEE_BENCH_ITERS": "0"}, "BEE_BENCH_ITERS"},
		{"bad timeout hook", []string{"run", "--spec", specPath, "--out", out}, map[string]string{"BEE_BENCH_CASE_TIMEOUT_S": "soon"}, "BEE_BENCH_CASE_TIMEOUT_S"},
		{"bad pace hook", []string{"run", "--spec", specPath, "--out", out}, map[string]string{"BEE_BENCH_PACE_FD": "-1"}, "BEE_BENCH_PACE_FD"},
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

func TestNodeIsPassedAndNetCasesRun(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.json")
	var got *Node
	code := Main([]string{"run", "--spec", writeTestSpec(t), "--case", "net.*", "--out", out,
		"--bee-url", "http://127.0.0.1:1633/", "--batch-id", "0x" + strings.Repeat("AB", 32)}, Config{
		Runner: "go",
		Cases: func(n *Node) (Registry, error) {
			got = n
			return Registry{"net.t.one": func(_ context.Context, env *Env, _ spec.Params) (*Bench, error) {
				if env.Node == nil || env.Salt() == env.Salt() {
					return nil, errors.New("no node, or salts repeat")
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

func TestCountHook(t *testing.T) {
	for v, want := range map[string]bool{"": false, "0": false, "1": true} {
		h, err := ParseHooks(func(k string) string { return map[string]string{"BEE_BENCH_COUNT": v}[k] })
		if err != nil || h.Count != want {
			t.Errorf("BEE_BENCH_COUNT=%q: %+v, %v", v, h, err)
		}
	}
	_, err := ParseHooks(func(k string) string { return map[string]string{"BEE_BENCH_COUNT": "yes"}[k] })
	var ue *spec.UsageError
	if !errors.As(err, &ue) || ue.Flag != "BEE_BENCH_COUNT" {
		t.Errorf("BEE_BENCH_COUNT=yes: %v, want a usage error naming the variable", err)
	}
}
