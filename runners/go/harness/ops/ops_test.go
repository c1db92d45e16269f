// Tests of the ops protocol against a fake Bee (httptest) through a plain net/http client: the
// answers, the payload rule, bad lines, timeouts, HTTP failures and per-line flushing. The bee-go
// client of the runner is tested against the same kind of node in the runner's own module.
package ops

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethswarm-tools/bee-bench/runners/go/harness/transfer"
)

// fakeBee stores uploads under the hex SHA-256 of their body and serves them back; reference
// "ff…" hangs after the first bytes of its body until the request ends.
type fakeBee struct {
	mu      sync.Mutex
	data    map[string][]byte
	headers []http.Header // of every request, in order
	tag     uint64
}

const hangRef = "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"

func newFakeBee(t *testing.T) (*fakeBee, *httptest.Server) {
	f := &fakeBee{data: map[string][]byte{}}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, srv
}

func (f *fakeBee) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.headers = append(f.headers, r.Header.Clone())
	f.mu.Unlock()
	switch {
	case r.Method == http.MethodPost && (r.URL.Path == "/bytes" || r.URL.Path == "/bzz"):
		if r.Header.Get("Swarm-Deferred-Upload") == "false" {
			http.Error(w, `{"code":400,"message":"operation not supported in dev mode"}`, http.StatusBadRequest)
			return
		}
		body, _ := io.ReadAll(r.Body)
		sum := sha256.Sum256(body)
		ref := hex.EncodeToString(sum[:])
		f.mu.Lock()
		f.data[ref] = body
		f.tag++
		tag := f.tag
		f.mu.Unlock()
		w.Header().Set("Swarm-Tag", strconv.FormatUint(tag, 10))
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, `{"reference":%q}`, ref)
	case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/"+hangRef):
		w.Write([]byte("partial"))
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-time.After(30 * time.Second): // bounded even if the client never gives up
		}
	case r.Method == http.MethodGet:
		ref := r.URL.Path[strings.LastIndexByte(r.URL.Path, '/')+1:]
		f.mu.Lock()
		body, ok := f.data[ref]
		f.mu.Unlock()
		if !ok {
			http.Error(w, `{"code":404,"message":"Not Found"}`, http.StatusNotFound)
			return
		}
		w.Write(body)
	default:
		http.Error(w, "unexpected", http.StatusMethodNotAllowed)
	}
}

// httpClient is a Client over net/http, standing in for the client library; it records the
// requests it was given.
type httpClient struct {
	url       string
	uploads   []UploadRequest
	downloads []DownloadRequest
}

func (c *httpClient) Upload(ctx context.Context, req UploadRequest, payload []byte) (Uploaded, error) {
	c.uploads = append(c.uploads, req)
	r, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url+"/"+req.Endpoint, bytes.NewReader(payload))
	if err != nil {
		return Uploaded{}, err
	}
	if d := req.Options.Deferred; d != nil {
		r.Header.Set("Swarm-Deferred-Upload", strconv.FormatBool(*d))
	}
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		return Uploaded{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		body, _ := io.ReadAll(resp.Body)
		return Uploaded{}, fmt.Errorf("Bee answered %d: %s", resp.StatusCode, strings.TrimSpace(string(body)))
	}
	var out struct{ Reference string }
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return Uploaded{}, err
	}
	tag, _ := strconv.ParseUint(resp.Header.Get("Swarm-Tag"), 10, 64)
	return Uploaded{Reference: out.Reference, Tag: tag}, nil
}

func (c *httpClient) Download(ctx context.Context, req DownloadRequest) (io.ReadCloser, error) {
	c.downloads = append(c.downloads, req)
	r, err := http.NewRequestWithContext(ctx, http.MethodGet, c.url+"/"+req.Endpoint+"/"+req.Reference, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return nil, fmt.Errorf("Bee answered %d: %s", resp.StatusCode, strings.TrimSpace(string(body)))
	}
	return resp.Body, nil
}

// reply is an answer line as the engine reads it.
type reply struct {
	Ready     bool            `json:"ready"`
	Runner    string          `json:"runner"`
	Client    *Identity       `json:"client"`
	ID        json.RawMessage `json:"id"`
	OK        bool            `json:"ok"`
	MS        *float64        `json:"ms"`
	Reference string          `json:"reference"`
	Tag       *uint64         `json:"tag"`
	Bytes     *int64          `json:"bytes"`
	SHA256    string          `json:"sha256"`
	Error     string          `json:"error"`
}

// session runs Serve over the input lines and returns the output lines after the ready line.
func session(t *testing.T, c Client, lines ...string) []reply {
	t.Helper()
	var out bytes.Buffer
	in := strings.NewReader(strings.Join(lines, "\n") + "\n")
	if err := Serve(context.Background(), in, &out, "go", Identity{Name: "bee-go", Version: "v9"}, c); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	var replies []reply
	for i, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		var r reply
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("output line %d is not JSON: %q", i+1, l)
		}
		replies = append(replies, r)
	}
	if len(replies) == 0 || !replies[0].Ready || replies[0].Runner != "go" || replies[0].Client == nil || *replies[0].Client != (Identity{"bee-go", "v9"}) {
		t.Fatalf("first line is not the ready line: %s", out.String())
	}
	if len(replies)-1 != len(lines) {
		t.Fatalf("%d answers to %d lines:\n%s", len(replies)-1, len(lines), out.String())
	}
	return replies[1:]
}

func idOf(t *testing.T, r reply) string {
	t.Helper()
	var s string
	if err := json.Unmarshal(r.ID, &s); err != nil {
		t.Fatalf("id %s is not a string", r.ID)
	}
	return s
}

// expectedPayload builds the payload rule's bytes independently of Payload: block i is
// SHA-256(seed ‖ u64be(i)).
func expectedPayload(seed []byte, n int) []byte {
	var buf bytes.Buffer
	for i := uint64(0); buf.Len() < n; i++ {
		h := sha256.New()
		h.Write(seed)
		binary.Write(h, binary.BigEndian, i)
		buf.Write(h.Sum(nil))
	}
	return buf.Bytes()[:n]
}

func TestPayloadRule(t *testing.T) {
	seed := make([]byte, 32)
	for i := range seed {
		seed[i] = byte(i)
	}
	var s [32]byte
	copy(s[:], seed)
	// Known vector (seed = bytes 0..31), from an implementation outside this code (Python's
	// hashlib): the first 70 bytes span three blocks.
	const want70 = "a9d6e500293a88bd38cbe213d07ab71f8cb2258552072a01bdf1c40be527f4d0" +
		"6061c4386d7a1788ba52e2e8b2ee6fe6137644ec75a70bf7042cfd67a1e57bd3" + "7365a07b4571"
	if got := hex.EncodeToString(Payload(s, 70)); got != want70 {
		t.Errorf("Payload(0..31, 70) = %s, want %s", got, want70)
	}
	first := sha256.Sum256(append(append([]byte{}, seed...), 0, 0, 0, 0, 0, 0, 0, 0))
	if got := Payload(s, 32); !bytes.Equal(got, first[:]) {
		t.Errorf("block 0 = %x, want SHA-256(seed ‖ u64be(0)) = %x", got, first)
	}
	for _, n := range []int{0, 1, 31, 32, 33, 4096, 100_001} {
		got := Payload(s, n)
		if len(got) != n || !bytes.Equal(got, expectedPayload(seed, n)) {
			t.Errorf("Payload(seed, %d): %d bytes, not the rule's", n, len(got))
		}
	}
}

func TestUploadThenDownload(t *testing.T) {
	bee, srv := newFakeBee(t)
	c := &httpClient{url: srv.URL}
	seed := strings.Repeat("ab", 32)
	rawSeed, _ := hex.DecodeString(seed)
	want := expectedPayload(rawSeed, 5000)
	sum := sha256.Sum256(want)
	ref := hex.EncodeToString(sum[:]) // the fake Bee's reference of the payload

	rs := session(t, c,
		`{"op":"upload","id":"u1","size":5000,"seed":"`+seed+`","level":3,"deferred":true,"endpoint":"bzz"}`,
		`{"op":"upload","id":"u2","size":5000,"seed":"`+seed+`"}`,
		`{"op":"download","id":"d1","reference":"`+ref+`","endpoint":"bytes","strategy":"RACE","fallback":false,"timeout_ms":60000}`,
		`{"op":"download","id":"d2","reference":"`+strings.ToUpper(ref)+`"}`,
	)
	for i, r := range rs[:2] {
		if !r.OK || r.Reference != ref || r.MS == nil || *r.MS < 0 || r.Tag == nil || *r.Tag != uint64(i+1) || r.Error != "" {
			t.Errorf("upload %d: %+v, want ok with reference %s and tag %d", i+1, r, ref, i+1)
		}
	}
	for i, r := range rs[2:] {
		if !r.OK || r.Bytes == nil || *r.Bytes != 5000 || r.SHA256 != ref || r.MS == nil || r.Reference != "" {
			t.Errorf("download %d: %+v, want 5000 bytes with sha256 %s", i+1, r, ref)
		}
	}
	for i, want := range []string{"u1", "u2", "d1", "d2"} {
		if got := idOf(t, rs[i]); got != want {
			t.Errorf("answer %d has id %q, want %q (answers in input order)", i+1, got, want)
		}
	}
	if got := len(bee.data); got != 1 {
		t.Errorf("the node holds %d bodies, want the one payload", got)
	}

	// What each line asked for reaches the client as typed options; absent is nil.
	level, yes, no, race := 3, true, false, transfer.Race
	wantUp := []UploadRequest{{Endpoint: "bzz", Options: transfer.Options{Level: &level, Deferred: &yes}}, {Endpoint: "bytes"}}
	for i, w := range wantUp {
		if g := c.uploads[i]; g.Endpoint != w.Endpoint || !sameOptions(g.Options, w.Options) {
			t.Errorf("upload %d reached the client as %+v, want %+v", i+1, g, w)
		}
	}
	wantDown := []DownloadRequest{{Reference: ref, Endpoint: "bytes", Options: transfer.Options{Strategy: &race, Fallback: &no}}, {Reference: ref, Endpoint: "bytes"}}
	for i, w := range wantDown {
		if g := c.downloads[i]; g.Reference != w.Reference || g.Endpoint != w.Endpoint || !sameOptions(g.Options, w.Options) {
			t.Errorf("download %d reached the client as %+v, want %+v", i+1, g, w)
		}
	}
}

func sameOptions(a, b transfer.Options) bool {
	eq := func(x, y any) bool { return fmt.Sprint(x) == fmt.Sprint(y) }
	deref := func(p any) any {
		switch v := p.(type) {
		case *int:
			if v != nil {
				return *v
			}
		case *bool:
			if v != nil {
				return *v
			}
		case *transfer.Strategy:
			if v != nil {
				return *v
			}
		}
		return nil
	}
	return eq(deref(a.Level), deref(b.Level)) && eq(deref(a.Deferred), deref(b.Deferred)) &&
		eq(deref(a.Strategy), deref(b.Strategy)) && eq(deref(a.Fallback), deref(b.Fallback))
}

func TestBadLinesAreAnsweredAndTheSessionGoesOn(t *testing.T) {
	_, srv := newFakeBee(t)
	seed := strings.Repeat("01", 32)
	lines := []struct{ line, id, want string }{
		{`not json`, "", "bad op: not JSON"},
		{``, "", "bad op: not JSON"},
		{`[1,2]`, "", "bad op: not a JSON object"},
		{`{"op":5,"id":"x0"}`, "x0", `bad op: "op": want "upload" or "download", got 5`},
		{`{"op":"delete","id":"x1"}`, "x1", `bad op: unknown op "delete"`},
		{`{"id":"x2"}`, "x2", `bad op: no "op"`},
		{`{"op":"upload","id":"x3","size":10,"seed":"` + seed + `","colour":"red"}`, "x3", `bad op: upload: unknown field "colour"`},
		{`{"op":"upload","id":"x4","size":10,"seed":"` + seed + `","level":5}`, "x4", "bad op: upload: level: want an integer 0..4, got 5"},
		{`{"op":"upload","id":"x5","size":10,"seed":"abc"}`, "x5", "bad op: upload: seed: want 64 hex digits"},
		{`{"op":"upload","id":"x6","seed":"` + seed + `"}`, "x6", "bad op: upload: size: required"},
		{`{"op":"upload","id":"x7","size":1.5,"seed":"` + seed + `"}`, "x7", "bad op: upload: size: want int64"},
		{`{"op":"upload","id":"x8","size":10,"seed":"` + seed + `","endpoint":"chunks"}`, "x8", `bad op: upload: endpoint: want "bytes" or "bzz"`},
		{`{"op":"download","id":"x9","reference":"12"}`, "x9", "bad op: download: reference: want 64 or 128 hex digits"},
		{`{"op":"download","id":"x10","reference":"` + hangRef + `","strategy":"FAST"}`, "x10", "bad op: download: strategy: want one of NONE, DATA, PROX, RACE"},
		{`{"op":"download","id":"x11","reference":"` + hangRef + `","timeout_ms":0}`, "x11", "bad op: download: timeout_ms: want a positive number"},
		{`{"op":"upload","size":10,"seed":"` + seed + `"}`, "", "bad op: upload: id: required"},
		{`{"op":"upload","id":7,"size":10,"seed":"` + seed + `"}`, "", "bad op: upload: id: want string"},
		{`{"op":"upload","id":"ok","size":10,"seed":"` + seed + `"}`, "ok", ""},
	}
	in := make([]string, len(lines))
	for i, l := range lines {
		in[i] = l.line
	}
	rs := session(t, &httpClient{url: srv.URL}, in...)
	for i, l := range lines {
		r := rs[i]
		if l.want == "" {
			if !r.OK {
				t.Errorf("line %d (%s): %+v, want ok: a bad line does not end the session", i+1, l.line, r)
			}
			continue
		}
		if r.OK || !strings.HasPrefix(r.Error, l.want) || r.MS != nil {
			t.Errorf("line %d (%s): ok=%v error %q, want an error starting %q and no ms", i+1, l.line, r.OK, r.Error, l.want)
		}
		if l.id == "" && string(r.ID) != "null" {
			t.Errorf("line %d: id %s, want null", i+1, r.ID)
		} else if l.id != "" && idOf(t, r) != l.id {
			t.Errorf("line %d: id %s, want %q", i+1, r.ID, l.id)
		}
	}
}

func TestTooLongLine(t *testing.T) {
	_, srv := newFakeBee(t)
	long := `{"op":"download","id":"` + strings.Repeat("x", MaxLine) + `"}`
	rs := session(t, &httpClient{url: srv.URL}, long, `{"op":"upload","id":"after","size":1,"seed":"`+strings.Repeat("00", 32)+`"}`)
	if rs[0].OK || !strings.Contains(rs[0].Error, "line longer than") {
		t.Errorf("long line: %+v", rs[0])
	}
	if !rs[1].OK || idOf(t, rs[1]) != "after" {
		t.Errorf("the line after a long one: %+v", rs[1])
	}
}

func TestDownloadTimeoutAndHTTPFailures(t *testing.T) {
	_, srv := newFakeBee(t)
	missing := strings.Repeat("0a", 32)
	rs := session(t, &httpClient{url: srv.URL},
		`{"op":"download","id":"slow","reference":"`+hangRef+`","timeout_ms":150}`,
		`{"op":"download","id":"gone","reference":"`+missing+`","timeout_ms":60000}`,
		`{"op":"upload","id":"direct","size":100,"seed":"`+strings.Repeat("02", 32)+`","deferred":false}`,
	)
	slow := rs[0]
	if slow.OK || slow.Error != "timeout after 150 ms" || slow.MS == nil || *slow.MS < 150 {
		t.Errorf("hanging download: %+v, want ok:false, error \"timeout after 150 ms\", ms >= 150", slow)
	}
	if g := rs[1]; g.OK || !strings.Contains(g.Error, "404") || g.MS == nil {
		t.Errorf("missing reference: %+v, want ok:false with the status code and ms", g)
	}
	if d := rs[2]; d.OK || !strings.Contains(d.Error, "400") || !strings.Contains(d.Error, "dev mode") || d.MS == nil || d.Reference != "" {
		t.Errorf("refused upload: %+v, want ok:false with the node's status and message", d)
	}
}

// TestAnswersAreFlushedPerLine drives Serve through pipes: each answer must be readable before
// the next line is written.
func TestAnswersAreFlushedPerLine(t *testing.T) {
	_, srv := newFakeBee(t)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- Serve(context.Background(), inR, outW, "go", Identity{"bee-go", "v9"}, &httpClient{url: srv.URL})
		outW.Close()
	}()
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	next := func(what string) string {
		t.Helper()
		select {
		case l := <-lines:
			return l
		case <-time.After(20 * time.Second):
			t.Fatalf("no %s line within 20 s: not flushed", what)
			return ""
		}
	}
	if l := next("ready"); !strings.Contains(l, `"ready":true`) {
		t.Fatalf("first line %q", l)
	}
	for i := range 3 {
		id := fmt.Sprintf("u%d", i)
		fmt.Fprintf(inW, `{"op":"upload","id":%q,"size":64,"seed":"%s"}`+"\n", id, strings.Repeat("03", 32))
		if l := next("answer"); !strings.Contains(l, `"id":"`+id+`"`) {
			t.Fatalf("answer to %s: %q", id, l)
		}
	}
	inW.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve at end of input: %v, want nil", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Serve did not return at end of input")
	}
}

// A last line without a newline is still answered.
func TestLastLineWithoutNewline(t *testing.T) {
	_, srv := newFakeBee(t)
	var out bytes.Buffer
	in := strings.NewReader(`{"op":"nope","id":"a"}` + "\r\n" + `{"op":"nope","id":"b"}`)
	if err := Serve(context.Background(), in, &out, "go", Identity{}, &httpClient{url: srv.URL}); err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(got) != 3 || !strings.Contains(got[1], `"id":"a"`) || !strings.Contains(got[2], `"id":"b"`) {
		t.Errorf("output %q, want the ready line and two answers", out.String())
	}
}

// panicky is a client whose calls panic.
type panicky struct{}

func (panicky) Upload(context.Context, UploadRequest, []byte) (Uploaded, error) { panic("boom") }
func (panicky) Download(context.Context, DownloadRequest) (io.ReadCloser, error) {
	panic("boom")
}

func TestAPanickingCallFailsOnlyItsOp(t *testing.T) {
	rs := session(t, panicky{},
		`{"op":"upload","id":"a","size":1,"seed":"`+strings.Repeat("00", 32)+`"}`,
		`{"op":"download","id":"b","reference":"`+hangRef+`"}`)
	for _, r := range rs {
		if r.OK || !strings.Contains(r.Error, "panic in the client call: boom") {
			t.Errorf("%+v", r)
		}
	}
}
