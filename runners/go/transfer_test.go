// Tests of the transfer settings through bee-go against a fake Bee (httptest): the headers bee-go
// sends for each erasure level, upload mode, strategy and fallback, in the ops client and in the
// net cases (the untimed digest upload at the unit's level, the direct-upload skip with the
// node's answer, the byte-for-byte check before timing).
package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethswarm-tools/bee-bench/runners/go/harness"
	"github.com/ethswarm-tools/bee-bench/runners/go/harness/fixture"
	"github.com/ethswarm-tools/bee-bench/runners/go/harness/ops"
	"github.com/ethswarm-tools/bee-bench/runners/go/harness/result"
	"github.com/ethswarm-tools/bee-bench/runners/go/harness/transfer"
)

// fakeBee answers uploads with the hex SHA-256 of the body (and of the level header, so a level
// changes the reference as on a real node), refuses direct uploads as a dev node does, and
// serves what it stored, flipping one byte when corrupt is set.
type fakeBee struct {
	mu       sync.Mutex
	data     map[string][]byte
	requests []*http.Request // method, URL and headers of each request
	corrupt  bool
}

const hangRef = "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"

func newFakeBee(t *testing.T) (*fakeBee, string) {
	f := &fakeBee{data: map[string][]byte{}}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, srv.URL
}

func (f *fakeBee) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.requests = append(f.requests, r.Clone(context.Background()))
	corrupt := f.corrupt
	f.mu.Unlock()
	switch {
	case r.URL.Path == "/health":
		fmt.Fprint(w, `{"status":"ok","version":"2.8.0-fake","apiVersion":"7.4.1"}`)
	case r.Method == http.MethodPost && (r.URL.Path == "/bytes" || r.URL.Path == "/bzz"):
		if r.Header.Get("Swarm-Deferred-Upload") == "false" {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"code":400,"message":"operation not supported in dev mode"}`)
			return
		}
		body, _ := io.ReadAll(r.Body)
		h := sha256.New()
		h.Write(body)
		h.Write([]byte(r.Header.Get("Swarm-Redundancy-Level")))
		ref := hex.EncodeToString(h.Sum(nil))
		f.mu.Lock()
		f.data[ref] = body
		f.mu.Unlock()
		w.Header().Set("Swarm-Tag", "42")
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, `{"reference":%q}`, ref)
	case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, hangRef):
		w.Write([]byte("partial"))
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-time.After(30 * time.Second):
		}
	case r.Method == http.MethodGet:
		ref := r.URL.Path[strings.LastIndexByte(r.URL.Path, '/')+1:]
		f.mu.Lock()
		body, ok := f.data[ref]
		f.mu.Unlock()
		if !ok {
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, `{"code":404,"message":"Not Found"}`)
			return
		}
		if corrupt && len(body) > 1000 {
			body = bytes.Clone(body)
			body[1000] ^= 1
		}
		w.Write(body)
	default:
		w.WriteHeader(http.StatusNotImplemented)
	}
}

// swarmHeaders are the Swarm-* headers of request i that these settings decide.
func (f *fakeBee) swarmHeaders(i int) map[string]string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[string]string{}
	for _, k := range []string{"Swarm-Redundancy-Level", "Swarm-Deferred-Upload", "Swarm-Redundancy-Strategy", "Swarm-Redundancy-Fallback-Mode"} {
		if v := f.requests[i].Header.Get(k); v != "" {
			out[k] = v
		}
	}
	return out
}

func (f *fakeBee) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.requests)
}

func ptr[T any](v T) *T { return &v }

var testBatch = strings.Repeat("ab", 32)

// TestSettingsAsBeeGoHeaders: each setting reaches Bee as the header it names, through bee-go's
// own options; an absent setting sends no header.
func TestSettingsAsBeeGoHeaders(t *testing.T) {
	bee, url := newFakeBee(t)
	c, err := newOpsClient(&harness.Node{URL: url, BatchID: testBatch})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	uploads := []struct {
		o    transfer.Options
		want map[string]string
	}{
		{transfer.Options{}, map[string]string{}},
		{transfer.Options{Level: ptr(0)}, map[string]string{}}, // bee-go leaves level 0 (Bee's default) unsent
		{transfer.Options{Level: ptr(1)}, map[string]string{"Swarm-Redundancy-Level": "1"}},
		{transfer.Options{Level: ptr(4), Deferred: ptr(true)}, map[string]string{"Swarm-Redundancy-Level": "4", "Swarm-Deferred-Upload": "true"}},
		{transfer.Options{Level: ptr(2), Deferred: ptr(false)}, map[string]string{"Swarm-Redundancy-Level": "2", "Swarm-Deferred-Upload": "false"}},
	}
	for _, endpoint := range []string{ops.EndpointBytes, ops.EndpointBzz} {
		for _, u := range uploads {
			n := bee.count()
			c.Upload(ctx, ops.UploadRequest{Endpoint: endpoint, Options: u.o}, []byte("payload"))
			if got := bee.swarmHeaders(n); fmt.Sprint(got) != fmt.Sprint(u.want) {
				t.Errorf("%s upload %s: headers %v, want %v", endpoint, show(u.o), got, u.want)
			}
		}
	}
	res, err := c.Upload(ctx, ops.UploadRequest{Endpoint: ops.EndpointBytes}, []byte("payload"))
	if err != nil {
		t.Fatal(err)
	}
	downloads := []struct {
		o    transfer.Options
		want map[string]string
	}{
		{transfer.Options{}, map[string]string{}},
		{transfer.Options{Strategy: ptr(transfer.None)}, map[string]string{"Swarm-Redundancy-Strategy": "0"}},
		{transfer.Options{Strategy: ptr(transfer.Data), Fallback: ptr(true)}, map[string]string{"Swarm-Redundancy-Strategy": "1", "Swarm-Redundancy-Fallback-Mode": "true"}},
		{transfer.Options{Strategy: ptr(transfer.Prox)}, map[string]string{"Swarm-Redundancy-Strategy": "2"}},
		{transfer.Options{Strategy: ptr(transfer.Race), Fallback: ptr(false)}, map[string]string{"Swarm-Redundancy-Strategy": "3", "Swarm-Redundancy-Fallback-Mode": "false"}},
		{transfer.Options{Fallback: ptr(false)}, map[string]string{"Swarm-Redundancy-Fallback-Mode": "false"}},
	}
	for _, endpoint := range []string{ops.EndpointBytes, ops.EndpointBzz} {
		for _, d := range downloads {
			n := bee.count()
			body, err := c.Download(ctx, ops.DownloadRequest{Reference: res.Reference, Endpoint: endpoint, Options: d.o})
			if err != nil {
				t.Fatalf("%s download: %v", endpoint, err)
			}
			body.Close()
			if got := bee.swarmHeaders(n); fmt.Sprint(got) != fmt.Sprint(d.want) {
				t.Errorf("%s download %s: headers %v, want %v", endpoint, show(d.o), got, d.want)
			}
		}
	}
}

func show(o transfer.Options) string {
	b, _ := json.Marshal(o)
	return string(b)
}

// TestOpsThroughBeeGo runs the ops protocol with the bee-go client: the /bzz file, the tag, the
// body's hash, the node's status in errors, and the timeout.
func TestOpsThroughBeeGo(t *testing.T) {
	bee, url := newFakeBee(t)
	c, err := newOpsClient(&harness.Node{URL: url, BatchID: testBatch})
	if err != nil {
		t.Fatal(err)
	}
	seed := strings.Repeat("5a", 32)
	var raw [32]byte
	hex.Decode(raw[:], []byte(seed))
	payload := ops.Payload(raw, 3000)
	sum := sha256.Sum256(payload)
	ref := hex.EncodeToString(sum[:]) // the fake's reference without a level header
	in := strings.Join([]string{
		`{"op":"upload","id":"u","size":3000,"seed":"` + seed + `","endpoint":"bzz"}`,
		`{"op":"download","id":"d","reference":"` + ref + `","endpoint":"bzz","strategy":"DATA","timeout_ms":10000}`,
		`{"op":"download","id":"404","reference":"` + strings.Repeat("0b", 32) + `"}`,
		`{"op":"upload","id":"direct","size":10,"seed":"` + seed + `","deferred":false}`,
		`{"op":"download","id":"slow","reference":"` + hangRef + `","timeout_ms":100}`,
	}, "\n") + "\n"
	var out bytes.Buffer
	if err := ops.Serve(context.Background(), strings.NewReader(in), &out, "go", ops.Identity{}, c); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")[1:]
	want := []string{
		`"id":"u","ok":true,"ms":`, `"reference":"` + ref + `","tag":42}`,
		`"id":"d","ok":true,"ms":`, `"bytes":3000,"sha256":"` + ref + `"}`,
		`"id":"404","ok":false`, `"error":"Bee answered 404 to GET /bytes/` + strings.Repeat("0b", 32) + `: Not Found"`,
		`"id":"direct","ok":false`, `"error":"Bee answered 400 to POST /bytes: operation not supported in dev mode"`,
		`"id":"slow","ok":false`, `"error":"timeout after 100 ms"`,
	}
	if len(lines) != 5 {
		t.Fatalf("answers:\n%s", out.String())
	}
	for i, l := range lines {
		if !strings.Contains(l, want[2*i]) || !strings.Contains(l, want[2*i+1]) {
			t.Errorf("answer %d: %s\nwant %s … %s", i+1, l, want[2*i], want[2*i+1])
		}
	}
	up := bee.requests[0]
	if up.URL.Path != "/bzz" || up.URL.Query().Get("name") != "payload.bin" || up.Header.Get("Content-Type") != "application/octet-stream" {
		t.Errorf("bzz upload went to %s with content type %q", up.URL, up.Header.Get("Content-Type"))
	}
	if got := bee.requests[1]; got.URL.Path != "/bzz/"+ref || got.Header.Get("Swarm-Redundancy-Strategy") != "1" {
		t.Errorf("download: %s with strategy %q", got.URL.Path, got.Header.Get("Swarm-Redundancy-Strategy"))
	}
}

// runPlan runs the runner's cases on a plan of units against the node at url and returns the
// result's cases.
func runPlan(t *testing.T, url string, units ...map[string]any) []*result.Case {
	t.Helper()
	for i, u := range units {
		u["unit"], u["kind"], u["warmup"], u["iters"], u["timeout_s"] = i, "net", 1, 2, 60
		u["work"] = map[string]any{"bytes": u["param"].(map[string]any)["bytes"]}
		if _, ok := u["digest"]; !ok {
			u["digest"] = nil
		}
	}
	dir := t.TempDir()
	planPath, out := filepath.Join(dir, "plan.json"), filepath.Join(dir, "result.json")
	data, _ := json.Marshal(map[string]any{
		"schema": "bee-bench/plan@1", "runner": "go", "profile": "quick", "spec_hash": strings.Repeat("5e", 32),
		"fixtures": map[string]any{"data_label": "bee-bench/fixture", "key_label": "bee-bench/key", "digest_label": "bee-bench/digest", "chunk_payload_bytes": 4096},
		"units":    units,
	})
	if err := os.WriteFile(planPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	code := harness.Main([]string{"run", "--plan", planPath, "--out", out, "--bee-url", url, "--batch-id", testBatch}, harness.Config{
		Runner: "go", Client: clientIdentity(),
		Cases:      func(*harness.Node) (harness.Registry, error) { return registry(), nil },
		BeeVersion: beeVersion,
		Stderr:     &stderr, Getenv: func(string) string { return "" },
	})
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var r result.Result
	raw, _ := os.ReadFile(out)
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatal(err)
	}
	return r.Cases
}

func TestUploadCasesAtALevel(t *testing.T) {
	bee, url := newFakeBee(t)
	param := func(extra ...any) map[string]any {
		p := map[string]any{"label": "4 KiB", "bytes": 4096}
		for i := 0; i < len(extra); i += 2 {
			p[extra[i].(string)] = extra[i+1]
		}
		return p
	}
	withDigest := func(id string, p map[string]any) map[string]any {
		return map[string]any{"id": id, "param": p, "digest": map[string]any{"form": "value", "param": p}}
	}
	cases := runPlan(t, url,
		withDigest("net.bytes.upload", param("redundancy_level", 3)),
		withDigest("net.bzz.upload", param("redundancy_level", 2, "deferred", true)),
		withDigest("net.bytes.upload", param("deferred", false)),
		withDigest("net.bzz.upload", param("redundancy_level", 1, "deferred", false)),
		map[string]any{"id": "net.bytes.upload", "param": param("strategy", "RACE")},
	)
	// The digest is the reference of the unsalted fixture uploaded at the unit's level.
	h := sha256.New()
	h.Write(fixture.New("bee-bench/fixture", "", "").Data(4096))
	h.Write([]byte("3"))
	if c := cases[0]; c.Status != "ok" || c.Digest != hex.EncodeToString(h.Sum(nil)) {
		t.Errorf("bytes upload at level 3: %s %s digest %s, want the level-3 reference", c.Status, c.Error, c.Digest)
	}
	if c := cases[1]; c.Status != "ok" || len(c.SamplesNS) != 2 {
		t.Errorf("bzz upload at level 2: %s %s", c.Status, c.Error)
	}
	for i, c := range cases[2:4] {
		endpoint := []string{"/bytes", "/bzz"}[i]
		want := "the node refuses direct uploads: Bee answered 400 to POST " + endpoint + ": operation not supported in dev mode"
		if c.Status != "skipped" || c.SkipReason != want {
			t.Errorf("direct upload %d: %s %q %q, want skipped: %q", i+1, c.Status, c.SkipReason, c.Error, want)
		}
	}
	if c := cases[4]; c.Status != "failed" || !strings.Contains(c.Error, `param "strategy": not read by this case`) {
		t.Errorf("strategy on an upload: %s %q", c.Status, c.Error)
	}
	// Every upload of a unit carries its settings: the timed ones and the digest's.
	levels := map[string]int{}
	for i := range bee.count() {
		if r := bee.requests[i]; r.Method == http.MethodPost {
			hs := bee.swarmHeaders(i)
			levels[r.URL.Path+" L"+hs["Swarm-Redundancy-Level"]+" deferred="+hs["Swarm-Deferred-Upload"]]++
		}
	}
	want := map[string]int{
		"/bytes L3 deferred=":     5, // the digest's run and its unsalted upload, warmup, 2 iterations
		"/bzz L2 deferred=true":   5,
		"/bytes L deferred=false": 1, // the probe only
		"/bzz L1 deferred=false":  1,
	}
	if fmt.Sprint(levels) != fmt.Sprint(want) {
		t.Errorf("uploads by settings %v, want %v", levels, want)
	}
}

func TestDownloadCases(t *testing.T) {
	bee, url := newFakeBee(t)
	p := func(label string, extra ...any) map[string]any {
		m := map[string]any{"label": label, "bytes": 5000}
		for i := 0; i < len(extra); i += 2 {
			m[extra[i].(string)] = extra[i+1]
		}
		return m
	}
	cases := runPlan(t, url,
		map[string]any{"id": "net.bytes.download", "param": p("L4 RACE", "redundancy_level", 4, "strategy", "RACE", "fallback", false)},
		map[string]any{"id": "net.bzz.download", "param": p("L0 NONE", "redundancy_level", 0, "strategy", "NONE")},
		map[string]any{"id": "net.bytes.download", "param": p("deferred", "deferred", true)},
	)
	for _, c := range cases[:2] {
		if c.Status != "ok" || len(c.SamplesNS) != 2 {
			t.Errorf("%s %s: %s %s", c.ID, c.Param.Label(), c.Status, c.Error)
		}
	}
	if c := cases[2]; c.Status != "failed" || !strings.Contains(c.Error, `param "deferred": not read by this case`) {
		t.Errorf("deferred on a download: %s %q", c.Status, c.Error)
	}
	var gets, posts []string
	for i := range bee.count() {
		hs := bee.swarmHeaders(i)
		r := bee.requests[i]
		switch {
		case r.Method == http.MethodPost:
			posts = append(posts, r.URL.Path+" "+fmt.Sprint(hs))
		case r.Method == http.MethodGet && r.URL.Path != "/health":
			gets = append(gets, strings.SplitN(r.URL.Path, "/", 3)[1]+" "+fmt.Sprint(hs))
		}
	}
	wantPosts := []string{
		"/bytes map[Swarm-Deferred-Upload:true Swarm-Redundancy-Level:4]",
		"/bzz map[Swarm-Deferred-Upload:true]",
	}
	if fmt.Sprint(posts) != fmt.Sprint(wantPosts) {
		t.Errorf("uploads %v, want %v", posts, wantPosts)
	}
	// One verification download, one warmup, two iterations, each with the unit's settings.
	wantGets := append(repeat("bytes map[Swarm-Redundancy-Fallback-Mode:false Swarm-Redundancy-Strategy:3]", 4),
		repeat("bzz map[Swarm-Redundancy-Strategy:0]", 4)...)
	if fmt.Sprint(gets) != fmt.Sprint(wantGets) {
		t.Errorf("downloads %v, want %v", gets, wantGets)
	}

	// A wrong byte fails the unit before any time is taken.
	bee.corrupt = true
	cases = runPlan(t, url, map[string]any{"id": "net.bytes.download", "param": p("corrupt", "redundancy_level", 1)},
		map[string]any{"id": "net.bzz.download", "param": p("corrupt")})
	for _, c := range cases {
		want := "content mismatch on GET /" + strings.Split(c.ID, ".")[1] + ": got 5008 bytes (sha256 "
		if c.Status != "failed" || !strings.Contains(c.Error, want) || !strings.HasSuffix(c.Error, "; first difference at byte 1000") || len(c.SamplesNS) != 0 {
			t.Errorf("%s with a wrong byte: %s %q, want failed with %q and no samples", c.ID, c.Status, c.Error, want)
		}
	}
}

func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// The byte-for-byte check also catches a short or a long body.
func TestCompareBody(t *testing.T) {
	want := []byte("0123456789")
	for _, tc := range []struct{ got, err string }{
		{"0123456789", ""},
		{"012345678", "got 9 bytes (sha256 36f50957f5e0b6ee), the upload was 10 bytes (sha256 84d89877f0d4041e)"},
		{"0123456789X", "got 11 bytes (sha256 "},
		{"0123456789X", "; first difference at byte 10"},
		{"0123X56789", "; first difference at byte 4"},
		{"", "got 0 bytes (sha256 e3b0c44298fc1c14), the upload was 10 bytes"},
	} {
		err := compareBody(io.NopCloser(strings.NewReader(tc.got)), "GET /bytes", want)
		if (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%q: %v, want %q", tc.got, err, tc.err)
		}
	}
}
