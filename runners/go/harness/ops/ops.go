// Package ops is the runner's `ops` subcommand (issue 37's experiment drives a runner through it):
// JSON lines on stdin, one JSON answer per line on stdout, in order, flushed after each. An upload
// line builds its payload from a seed and uploads it; a download line streams the body into
// SHA-256 as it arrives (never holding it) under the line's timeout. The protocol lives here,
// with no client library; the runner's main package supplies a Client over bee-go.
package ops

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/ethswarm-tools/bee-bench/runners/go/harness/transfer"
)

// Endpoints an op may name.
const (
	EndpointBytes = "bytes" // POST /bytes, GET /bytes/{ref}
	EndpointBzz   = "bzz"   // POST /bzz as one file, GET /bzz/{ref}
)

// BzzFileName and BzzContentType are the file an upload to /bzz makes.
const (
	BzzFileName    = "payload.bin"
	BzzContentType = "application/octet-stream"
)

// MaxSize bounds an upload's size: its payload is built in memory before the timer starts.
const MaxSize = 1 << 30

// MaxLine bounds an input line; a longer one is answered as a bad op and skipped.
const MaxLine = 1 << 20

// UploadRequest is an upload for the client: where to, and its level and mode.
type UploadRequest struct {
	Endpoint string
	Options  transfer.Options // Level and Deferred
}

// Uploaded is what an upload returns: the reference (hex) and the tag uid, 0 when the client
// returns none.
type Uploaded struct {
	Reference string
	Tag       uint64
}

// DownloadRequest is a download for the client: what, from where, and its strategy and fallback.
type DownloadRequest struct {
	Reference string // 64 or 128 hex digits
	Endpoint  string
	Options   transfer.Options // Strategy and Fallback
}

// Client performs ops through the client library. Errors are reported as they read (an HTTP
// failure names its status code); Download returns the body unread, and its reads must honour ctx.
type Client interface {
	Upload(ctx context.Context, req UploadRequest, payload []byte) (Uploaded, error)
	Download(ctx context.Context, req DownloadRequest) (io.ReadCloser, error)
}

// Identity is the client library in the ready line.
type Identity struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// ready is the first line written, before any input is read.
type ready struct {
	Ready  bool     `json:"ready"`
	Runner string   `json:"runner"`
	Client Identity `json:"client"`
}

// answer is one output line. A bad line has neither ms nor any result field.
type answer struct {
	ID        *string  `json:"id"` // null when the line had no string id
	OK        bool     `json:"ok"`
	MS        *float64 `json:"ms,omitempty"`
	Reference string   `json:"reference,omitempty"`
	Tag       uint64   `json:"tag,omitempty"`
	Bytes     *int64   `json:"bytes,omitempty"`
	SHA256    string   `json:"sha256,omitempty"`
	Error     string   `json:"error,omitempty"`
}

// uploadLine and downloadLine are the ops' fields; any other field makes the line a bad op.
type uploadLine struct {
	Op       string  `json:"op"`
	ID       string  `json:"id"`
	Size     *int64  `json:"size"`
	Seed     string  `json:"seed"`
	Level    *int    `json:"level"`
	Deferred *bool   `json:"deferred"`
	Endpoint *string `json:"endpoint"`
}

type downloadLine struct {
	Op        string   `json:"op"`
	ID        string   `json:"id"`
	Reference string   `json:"reference"`
	Endpoint  *string  `json:"endpoint"`
	Strategy  *string  `json:"strategy"`
	Fallback  *bool    `json:"fallback"`
	TimeoutMS *float64 `json:"timeout_ms"`
}

// Serve writes the ready line, then answers every line of in on out until in ends (nil) or out
// cannot be written (that error). Ops run one at a time, so answers come in input order.
func Serve(ctx context.Context, in io.Reader, out io.Writer, runner string, id Identity, c Client) error {
	w := bufio.NewWriter(out)
	emit := func(v any) error {
		line, err := json.Marshal(v)
		if err != nil {
			return err
		}
		w.Write(line)
		w.WriteByte('\n')
		return w.Flush()
	}
	if err := emit(ready{Ready: true, Runner: runner, Client: id}); err != nil {
		return err
	}
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, tooLong, err := readLine(r, MaxLine)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading stdin: %w", err)
		}
		var a answer
		if tooLong {
			a = bad(nil, fmt.Sprintf("line longer than %d bytes", MaxLine))
		} else {
			a = handle(ctx, c, line)
		}
		if err := emit(a); err != nil {
			return err
		}
	}
}

// readLine returns the next line without its line ending. A line over limit bytes is read to its
// end and dropped (tooLong). The last line may lack a newline; io.EOF comes after it.
func readLine(r *bufio.Reader, limit int) (line []byte, tooLong bool, err error) {
	for {
		frag, err := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(frag) > limit+2 { // +2: the line ending is not part of the line
				tooLong, line = true, nil
			} else {
				line = append(line, frag...)
			}
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && (len(line) > 0 || tooLong):
			err = nil
		case err != nil:
			return nil, false, err
		}
		line = bytes.TrimRight(line, "\r\n")
		if !tooLong && len(line) > limit {
			tooLong, line = true, nil
		}
		return line, tooLong, nil
	}
}

func bad(id *string, msg string) answer {
	return answer{ID: id, Error: "bad op: " + msg}
}

// handle answers one line.
func handle(ctx context.Context, c Client, line []byte) answer {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(line, &fields); err != nil {
		if !json.Valid(line) {
			return bad(nil, "not JSON: "+err.Error())
		}
		return bad(nil, "not a JSON object")
	}
	var id *string
	var s string
	if json.Unmarshal(fields["id"], &s) == nil {
		id = &s
	}
	var op string
	if raw, ok := fields["op"]; !ok || string(raw) == "null" {
		return bad(id, `no "op" (want "upload" or "download")`)
	} else if json.Unmarshal(raw, &op) != nil {
		return bad(id, fmt.Sprintf(`"op": want "upload" or "download", got %s`, raw))
	}
	switch op {
	case "upload":
		var l uploadLine
		if msg := decodeStrict(line, &l); msg != "" {
			return bad(id, "upload: "+msg)
		}
		req, seed, msg := l.check()
		if msg != "" {
			return bad(id, "upload: "+msg)
		}
		return upload(ctx, c, l.ID, req, Payload(seed, int(*l.Size)))
	case "download":
		var l downloadLine
		if msg := decodeStrict(line, &l); msg != "" {
			return bad(id, "download: "+msg)
		}
		req, msg := l.check()
		if msg != "" {
			return bad(id, "download: "+msg)
		}
		return download(ctx, c, l.ID, req, l.TimeoutMS)
	default:
		return bad(id, fmt.Sprintf(`unknown op %q (want "upload" or "download")`, op))
	}
}

// decodeStrict decodes line into v, refusing fields v does not have; the problem or "".
func decodeStrict(line []byte, v any) string {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return fmt.Sprintf("%s: want %s, got %s", te.Field, te.Type, te.Value)
		}
		return strings.TrimPrefix(err.Error(), "json: ")
	}
	if dec.More() {
		return "data after the JSON object"
	}
	return ""
}

var (
	hex64  = regexp.MustCompile(`^[0-9a-fA-F]{64}$`)
	refHex = regexp.MustCompile(`^([0-9a-fA-F]{64}|[0-9a-fA-F]{128})$`)
)

func endpoint(e *string) (string, string) {
	if e == nil {
		return EndpointBytes, ""
	}
	if *e != EndpointBytes && *e != EndpointBzz {
		return "", fmt.Sprintf(`endpoint: want "bytes" or "bzz", got %q`, *e)
	}
	return *e, ""
}

func (l *uploadLine) check() (UploadRequest, [32]byte, string) {
	var seed [32]byte
	switch {
	case l.ID == "":
		return UploadRequest{}, seed, "id: required (a non-empty string)"
	case l.Size == nil:
		return UploadRequest{}, seed, "size: required"
	case *l.Size < 0 || *l.Size > MaxSize:
		return UploadRequest{}, seed, fmt.Sprintf("size: want 0..%d bytes, got %d", MaxSize, *l.Size)
	case !hex64.MatchString(l.Seed):
		return UploadRequest{}, seed, fmt.Sprintf("seed: want 64 hex digits, got %q", l.Seed)
	}
	hex.Decode(seed[:], []byte(l.Seed))
	if l.Level != nil {
		if err := transfer.CheckLevel(*l.Level); err != nil {
			return UploadRequest{}, seed, "level: " + err.Error()
		}
	}
	ep, msg := endpoint(l.Endpoint)
	if msg != "" {
		return UploadRequest{}, seed, msg
	}
	return UploadRequest{Endpoint: ep, Options: transfer.Options{Level: l.Level, Deferred: l.Deferred}}, seed, ""
}

func (l *downloadLine) check() (DownloadRequest, string) {
	switch {
	case l.ID == "":
		return DownloadRequest{}, "id: required (a non-empty string)"
	case !refHex.MatchString(l.Reference):
		return DownloadRequest{}, fmt.Sprintf("reference: want 64 or 128 hex digits, got %q", l.Reference)
	case l.TimeoutMS != nil && !(*l.TimeoutMS > 0):
		return DownloadRequest{}, fmt.Sprintf("timeout_ms: want a positive number, got %g", *l.TimeoutMS)
	}
	o := transfer.Options{Fallback: l.Fallback}
	if l.Strategy != nil {
		s, err := transfer.ParseStrategy(*l.Strategy)
		if err != nil {
			return DownloadRequest{}, "strategy: " + err.Error()
		}
		o.Strategy = &s
	}
	ep, msg := endpoint(l.Endpoint)
	if msg != "" {
		return DownloadRequest{}, msg
	}
	return DownloadRequest{Reference: strings.ToLower(l.Reference), Endpoint: ep, Options: o}, ""
}

// Payload is the first n bytes of SHA-256(seed ‖ u64be(0)) ‖ SHA-256(seed ‖ u64be(1)) ‖ …
func Payload(seed [32]byte, n int) []byte {
	out := make([]byte, (n+31)/32*32)
	var in [40]byte
	copy(in[:], seed[:])
	for i := 0; i*32 < n; i++ {
		binary.BigEndian.PutUint64(in[32:], uint64(i))
		sum := sha256.Sum256(in[:])
		copy(out[i*32:], sum[:])
	}
	return out[:n:n]
}

func millis(d time.Duration) *float64 {
	ms := float64(d.Nanoseconds()) / 1e6
	return &ms
}

// guard runs a client call, turning a panic in it into an error so one op cannot end the
// session.
func guard(call func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic in the client call: %v", p)
		}
	}()
	return call()
}

// upload times the client's upload from the request until the reference is known.
func upload(ctx context.Context, c Client, id string, req UploadRequest, payload []byte) answer {
	var res Uploaded
	t0 := time.Now()
	err := guard(func() (err error) {
		res, err = c.Upload(ctx, req, payload)
		return err
	})
	a := answer{ID: &id, MS: millis(time.Since(t0))}
	if err != nil {
		a.Error = err.Error()
		return a
	}
	a.OK, a.Reference, a.Tag = true, res.Reference, res.Tag
	return a
}

// download times the client's download from the request until the last body byte, hashing the
// body as it arrives; past timeoutMS the call is cancelled and the op fails as a timeout.
func download(ctx context.Context, c Client, id string, req DownloadRequest, timeoutMS *float64) answer {
	if timeoutMS != nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(*timeoutMS*float64(time.Millisecond)))
		defer cancel()
	}
	h := sha256.New()
	var n int64
	t0 := time.Now()
	err := guard(func() error {
		body, err := c.Download(ctx, req)
		if err != nil {
			return err
		}
		defer body.Close()
		n, err = io.Copy(h, body)
		return err
	})
	a := answer{ID: &id, MS: millis(time.Since(t0))}
	switch {
	case err != nil && timeoutMS != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
		a.Error = "timeout after " + strconv.FormatFloat(*timeoutMS, 'f', -1, 64) + " ms"
	case err != nil:
		a.Error = err.Error()
	default:
		a.OK, a.Bytes, a.SHA256 = true, &n, hex.EncodeToString(h.Sum(nil))
	}
	return a
}
