package spec

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestMatch(t *testing.T) {
	cases := []struct {
		glob, id string
		want     bool
	}{
		{"cpu.bmt.file-root", "cpu.bmt.file-root", true},
		{"cpu.bmt.file-root", "cpu.bmt.file-roots", false}, // whole id
		{"cpu.*", "cpu.bmt.file-root", true},               // * crosses dots
		{"*", "net.stamps.list", true},
		{"*root", "cpu.bmt.encrypted-file-root", true},
		{"cpu.*.file-root", "cpu.bmt.encrypted-file-root", false},
		{"*.upload*", "net.bzz.upload-from-disk", true},
		{"net.bzz.upload?encrypted", "net.bzz.upload.encrypted", true},
		{"net.bzz.upload?", "net.bzz.upload", false}, // ? is exactly one character
		{"cpu.keccak.*-hash", "cpu.keccak.chunk-hash", true},
		{"*a*a*a", "aaa", true},
		{"*a*a*a", "aa", false},
		{"", "", true},
		{"", "x", false},
		{"c?u.*", "cpu.x", true},
	}
	for _, c := range cases {
		if got := Match(c.glob, c.id); got != c.want {
			t.Errorf("Match(%q, %q) = %v, want %v", c.glob, c.id, got, c.want)
		}
	}
}

const miniSpec = `{
  "schema": "bee-bench/spec@1",
  "profiles": {
    "quick": {"iters": 3, "warmup": {"cpu": 1, "net": 0}, "case_timeout_s": 10},
    "full": {"iters": 9, "warmup": {"cpu": 2, "net": 1}, "case_timeout_s": 60}
  },
  "fixtures": {"data_label": "d", "key_label": "k", "digest_label": "m", "chunk_payload_bytes": 4096},
  "groups": [{"id": "g", "title": "G", "note": ""}],
  "cases": [
    {"id": "cpu.a.one", "kind": "cpu", "group": "g", "doc": "x", "work": {"ops": ["count"], "bytes": ["count", "size"]},
     "digest": {"doc": "x", "form": "sha256-concat"}, "iters": {"quick": 7},
     "params": {
       "quick": [{"label": "q", "count": 2000, "size": 4096, "per_runner": {"js": {"count": 200}, "go": {"count": 20}}, "digest_with": {"count": 4}}],
       "full": [{"label": "f1", "count": 1, "size": 1}, {"label": "big", "count": 1, "size": 1073741824, "large": true}]}},
    {"id": "net.b.two", "kind": "net", "group": "g", "doc": "x", "work": {"ops": []}, "digest": null,
     "params": {"quick": [{"label": "n", "reads": 5}], "full": [{"label": "n", "reads": 5}]}}
  ]
}`

func mustParse(t *testing.T, text string) *Spec {
	t.Helper()
	s, err := Parse([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestParamResolution(t *testing.T) {
	s := mustParse(t, miniSpec)
	c := &s.Cases[0]
	raw := c.Params["quick"][0]

	eff := raw.Effective("go")
	if eff.Int("count") != 20 || eff.Int("size") != 4096 || eff.Label() != "q" {
		t.Fatalf("effective go param = %v", eff)
	}
	if _, ok := eff["per_runner"]; ok {
		t.Fatal("effective param keeps per_runner")
	}
	if _, ok := eff["digest_with"]; ok {
		t.Fatal("effective param keeps digest_with")
	}
	if rs := raw.Effective("rs"); rs.Int("count") != 2000 {
		t.Fatalf("a runner without per_runner gets the declared value, got %v", rs)
	}
	dp := raw.Digest("go")
	if dp.Int("count") != 4 || dp.Int("size") != 4096 {
		t.Fatalf("digest param = %v", dp)
	}
	if dp.Equal(eff) || !eff.Equal(raw.Effective("go")) {
		t.Fatal("Equal is wrong")
	}
	// The recorded param keeps JSON numbers as written.
	b, _ := json.Marshal(eff)
	if string(b) != `{"count":20,"label":"q","size":4096}` {
		t.Fatalf("param JSON = %s", b)
	}

	ops, ok := eff.Product(c.Work.Ops)
	if !ok || ops != 20 {
		t.Fatalf("work.ops = %v %v", ops, ok)
	}
	byts, ok := eff.Product(c.Work.Bytes)
	if !ok || byts != 20*4096 {
		t.Fatalf("work.bytes = %v %v", byts, ok)
	}
	if _, ok := s.Cases[1].Params["quick"][0].Effective("go").Product(s.Cases[1].Work.Ops); ok {
		t.Fatal("an empty work list must be omitted")
	}

	if s.ItersFor(c, "quick") != 7 || s.ItersFor(c, "full") != 9 {
		t.Fatal("case iters must override the profile's")
	}
	if !c.Params["full"][1].Large() || c.Params["full"][0].Large() {
		t.Fatal("large flag")
	}
	if big := c.Params["full"][1].Effective("go"); big.Int("size") != 1<<30 {
		t.Fatalf("large param = %v", big)
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

func TestSelect(t *testing.T) {
	s := mustParse(t, miniSpec)
	all, err := s.Select(nil)
	if err != nil || len(all) != 2 {
		t.Fatalf("no globs: %d cases, %v", len(all), err)
	}
	got, err := s.Select([]string{"net.*", "cpu.a.one"})
	if err != nil || len(got) != 2 || got[0].ID != "cpu.a.one" {
		t.Fatalf("selection must keep spec order: %v %v", got, err)
	}
	_, err = s.Select([]string{"cpu.*", "cpu.none"})
	var ue *UsageError
	if !errors.As(err, &ue) || ue.Flag != "--case" || !strings.Contains(ue.Msg, "cpu.none") {
		t.Fatalf("a glob matching nothing must be a --case usage error, got %v", err)
	}
}

func TestValidationNamesTheField(t *testing.T) {
	bad := []struct{ from, to, field string }{
		{`"schema": "bee-bench/spec@1"`, `"schema": "bee-bench/spec@2"`, "schema"},
		{`"iters": 3,`, `"iters": 0,`, "profiles.quick.iters"},
		{`"id": "net.b.two", "kind": "net"`, `"id": "net.b.two", "kind": "cpu"`, "cases[1].kind"},
		{`"id": "net.b.two"`, `"id": "cpu.a.one"`, "cases[1].id"},
		{`"group": "g", "doc": "x", "work": {"ops": []}`, `"group": "h", "doc": "x", "work": {"ops": []}`, "cases[1].group"},
		{`"digest_with": {"count": 4}`, `"digest_with": {"size": 4}`, "cases[0].params.quick[0].digest_with"},
		{`{"label": "f1", "count": 1, "size": 1}`, `{"label": "f1", "count": 1}`, "cases[0].params.full[0].size"},
		{`"form": "sha256-concat"`, `"form": "md5"`, "cases[0].digest.form"},
		{`"quick": [{"label": "n", "reads": 5}]`, `"quick": []`, "cases[1].params.quick"},
		{`{"label": "n", "reads": 5}], "full"`, `{"label": "", "reads": 5}], "full"`, "cases[1].params.quick[0].label"},
	}
	for _, b := range bad {
		text := strings.Replace(miniSpec, b.from, b.to, 1)
		if text == miniSpec {
			t.Fatalf("test edit %q did not apply", b.from)
		}
		_, err := Parse([]byte(text))
		var se *Error
		if !errors.As(err, &se) || se.Field != b.field {
			t.Errorf("edit %q: got %v, want an error at %s", b.to, err, b.field)
		}
	}
	if _, err := Parse([]byte("{")); err == nil {
		t.Error("broken JSON must fail")
	}
}

func TestHashIsOfTheBytes(t *testing.T) {
	s := mustParse(t, miniSpec)
	s2 := mustParse(t, miniSpec+"\n")
	if len(s.Hash) != 64 || s.Hash == s2.Hash {
		t.Fatalf("hash must be the hex sha256 of the exact bytes: %s %s", s.Hash, s2.Hash)
	}
}
