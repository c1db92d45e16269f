// Tests of reading a resolved plan.

package plan

import (
	"encoding/json"
	"errors"
	"maps"
	"strings"
	"testing"
	"time"
)

const goodPlan = `{
  "schema": "bee-bench/plan@1",
  "runner": "go",
  "profile": "full",
  "spec_hash": "` + "dfb34ccd80e5c37f1fd0c649040b6bf1916b18cee3883d753e59d85300a94d40" + `",
  "fixtures": {"data_label": "d", "key_label": "k", "digest_label": "m", "chunk_payload_bytes": 4096},
  "units": [
    {"unit": 3, "id": "cpu.a.one", "kind": "cpu", "param": {"label": "q", "count": 20, "size": 4096, "big": 1e3},
     "digest": {"form": "sha256-concat", "param": {"label": "q", "count": 4, "size": 4096}},
     "work": {"ops": 20, "bytes": 81920}, "warmup": 1, "iters": 7, "timeout_s": 2.5,
     "parallel": true, "fault": "hang", "slowdown": 0.25, "alloc_extra": 0.01},
    {"unit": 8, "id": "net.b.two", "kind": "net", "param": {"label": "n", "tag": "x", "on": false},
     "digest": null, "work": {}, "warmup": 0, "iters": 1, "timeout_s": 60}
  ]
}`

func TestReadsAGoodPlan(t *testing.T) {
	p, err := Parse("p.json", []byte(goodPlan), "go")
	if err != nil {
		t.Fatal(err)
	}
	if p.Runner != "go" || p.Profile != "full" || !strings.HasPrefix(p.SpecHash, "dfb34c") || len(p.Units) != 2 {
		t.Fatalf("plan: %+v", p)
	}
	if p.Fixtures != (Fixtures{"d", "k", "m", 4096}) {
		t.Fatalf("fixtures: %+v", p.Fixtures)
	}
	a, b := p.Units[0], p.Units[1]
	if a.Unit != 3 || a.ID != "cpu.a.one" || a.Kind != "cpu" || a.Param.Label() != "q" || a.Param.Int("count") != 20 {
		t.Fatalf("unit 0: %+v", a)
	}
	if a.Digest == nil || a.Digest.Form != FormSHA256Concat || a.Digest.Param.Int("count") != 4 || maps.Equal(a.Digest.Param, a.Param) {
		t.Fatalf("digest: %+v", a.Digest)
	}
	if *a.Work.Ops != 20 || *a.Work.Bytes != 81920 || a.Warmup != 1 || a.Iters != 7 || a.Timeout() != 2500*time.Millisecond {
		t.Fatalf("work, counts, timeout: %+v", a)
	}
	if a.Fault != FaultHang || a.Slowdown != 0.25 || a.AllocExtra != 0.01 {
		t.Fatalf("hooks: %+v", a)
	}
	if b.Unit != 8 || b.Digest != nil || b.Work.Ops != nil || b.Work.Bytes != nil || b.Fault != "" || b.Slowdown != 0 || b.AllocExtra != 0 {
		t.Fatalf("unit 1: %+v", b)
	}
	// Param numbers keep their JSON text, so the result records them as written.
	if v := a.Param["big"]; v != any(json.Number("1e3")) {
		t.Fatalf("param number = %#v", v)
	}
}

func TestBadPlansNameTheField(t *testing.T) {
	// The reader checks what the runner relies on and what its types give; the rest of the plan's
	// rules (enums, patterns, labels) are the engine's zod schema's.
	bad := []struct{ from, to, field, msg string }{
		{`"schema": "bee-bench/plan@1"`, `"schema": "bee-bench/plan@2"`, "schema", "want"},
		{`"schema": "bee-bench/plan@1"`, `"schema": 1`, "schema", "must be a string, got number"},
		{`"runner": "go"`, `"runner": "js"`, "runner", "bee-bench plan --runner go"},
		{`"runner": "go"`, `"runner": "py"`, "runner", "the plan is for the py runner"},
		{`"profile": "full"`, `"profile": 2`, "profile", "must be a string"},
		{`"chunk_payload_bytes": 4096`, `"chunk_payload_bytes": 4096.5`, "fixtures.chunk_payload_bytes", "must be an integer, got number 4096.5"},
		{`"units": [`, `"extra": 1, "units": [`, "", `unknown field "extra"`},
		{`"unit": 8`, `"unit": 3`, "units[1].unit", "must increase (3 then 3)"},
		{`"unit": 3`, `"unit": "3"`, "units[0].unit", "must be an integer, got string"},
		{`"iters": 7`, `"iters": 0`, "units[0].iters", "must be a positive integer"},
		{`"iters": 1,`, `"iters": 1.5,`, "units[1].iters", "must be an integer, got number 1.5"},
		{`"iters": 1,`, `"iters": "1",`, "units[1].iters", "must be an integer, got string"},
		{`"iters": 1,`, ``, "units[1].iters", "must be a positive integer, got 0"},
		{`"timeout_s": 60`, `"timeout_s": 0`, "units[1].timeout_s", "must be a positive number"},
		{`"timeout_s": 60`, `"timeout_s": null`, "units[1].timeout_s", "must be a positive number"},
		{`"param": {"label": "n", "tag": "x", "on": false}`, `"param": ["n"]`, "units[1].param", "must be an object, got array"},
		{`"digest": null`, `"digest": "md5"`, "units[1].digest", "must be an object, got string"},
		{`"work": {}`, `"work": {"ops": "1"}`, "units[1].work.ops", "must be a number, got string"},
		{`"work": {}`, `"work": {"op": 1}`, "units[1]", `unknown field "op"`},
		{`"timeout_s": 60}`, `"timeout_s": 60, "salt": 1}`, "units[1]", `unknown field "salt"`},
		{`"fault": "hang"`, `"fault": 1`, "units[0].fault", "must be a string"},
		{`"alloc_extra": 0.01`, `"alloc_extra": "1%"`, "units[0].alloc_extra", "must be a number, got string"},
		{`"parallel": true`, `"parallel": 1`, "units[0].parallel", "must be true or false, got number"},
		{`"units": [`, `"units": {"x": [`, "units", "must be an array, got object"},
	}
	for _, b := range bad {
		text := strings.Replace(goodPlan, b.from, b.to, 1)
		if b.field == "units" {
			text = strings.Replace(text, "]\n}", "]}\n}", 1)
		}
		if text == goodPlan {
			t.Fatalf("test edit %q did not apply", b.from)
		}
		_, err := Parse("p.json", []byte(text), "go")
		var pe *Error
		if !errors.As(err, &pe) || pe.Field != b.field || !strings.Contains(err.Error(), b.msg) {
			t.Errorf("edit %s: got %v, want an error at %s saying %q", b.to, err, b.field, b.msg)
			continue
		}
		if want := "bad plan p.json: " + b.field + ": "; b.field != "" && !strings.HasPrefix(err.Error(), want) {
			t.Errorf("edit %s: %q does not start %q", b.to, err, want)
		}
	}
	for _, text := range []string{"{", goodPlan + "{}", "[]"} {
		if _, err := Parse("p.json", []byte(text), "go"); err == nil || !strings.HasPrefix(err.Error(), "bad plan p.json: ") {
			t.Errorf("%.20q: got %v, want a bad plan", text, err)
		}
	}
}

func TestParamIntPanicsWithParamError(t *testing.T) {
	defer func() {
		var pe *ParamError
		r := recover()
		if err, ok := r.(error); !ok || !errors.As(err, &pe) || pe.Name != "nope" {
			t.Fatalf("recovered %v, want *ParamError for nope", r)
		}
	}()
	Params{"label": "x"}.Int("nope")
}
