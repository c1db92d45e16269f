// Tests of the `ops` command line: the node handed to the client, the ready line with the
// client's identity, exit 0 at end of input, and usage errors.
package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/ethswarm-tools/bee-bench/runners/go/harness/ops"
	"github.com/ethswarm-tools/bee-bench/runners/go/harness/result"
)

// refusing is an ops client whose every call fails.
type refusing struct{}

func (refusing) Upload(context.Context, ops.UploadRequest, []byte) (ops.Uploaded, error) {
	return ops.Uploaded{}, errors.New("refused")
}

func (refusing) Download(context.Context, ops.DownloadRequest) (io.ReadCloser, error) {
	return nil, errors.New("refused")
}

func TestOpsCommand(t *testing.T) {
	var got *Node
	var stdout, stderr bytes.Buffer
	code := Main([]string{"ops", "--bee-url", "http://127.0.0.1:1633/", "--batch-id", "0x" + strings.Repeat("CD", 32)}, Config{
		Runner: "go",
		Client: result.Client{Name: "github.com/ethswarm-tools/bee-go", Version: "v1.2.1", Source: "path", Commit: "abc"},
		Ops: func(n *Node) (ops.Client, error) {
			got = n
			return refusing{}, nil
		},
		Stdin:  strings.NewReader(`{"op":"download","id":"d","reference":"` + strings.Repeat("00", 32) + `"}` + "\n"),
		Stdout: &stdout, Stderr: &stderr,
	})
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	if got == nil || got.URL != "http://127.0.0.1:1633" || got.BatchID != strings.Repeat("cd", 32) || got.CallTimeout != 0 {
		t.Errorf("node = %+v, want the flags' node with no per-call bound", got)
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("stdout %q, want the ready line and one answer", stdout.String())
	}
	var hello map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &hello); err != nil {
		t.Fatal(err)
	}
	client, _ := json.Marshal(hello["client"])
	if hello["ready"] != true || hello["runner"] != "go" || string(client) != `{"name":"github.com/ethswarm-tools/bee-go","version":"v1.2.1"}` {
		t.Errorf("ready line %s", lines[0])
	}
	if !strings.Contains(lines[1], `"id":"d","ok":false`) || !strings.Contains(lines[1], `"error":"refused"`) {
		t.Errorf("answer %s", lines[1])
	}
}

func TestOpsUsageErrors(t *testing.T) {
	batch := strings.Repeat("ab", 32)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"ops", "--batch-id", batch}, "--bee-url: required"},
		{[]string{"ops", "--bee-url", "http://127.0.0.1:1633"}, "--batch-id: required"},
		{[]string{"ops", "--bee-url", "127.0.0.1:1633", "--batch-id", batch}, "--bee-url: want an http(s) URL"},
		{[]string{"ops", "--bee-url", "http://127.0.0.1:1633", "--batch-id", "12"}, "--batch-id: want 64 hex digits"},
		{[]string{"ops", "--bee-url", "http://127.0.0.1:1633", "--batch-id", batch, "extra"}, `unexpected "extra"`},
	} {
		var stderr bytes.Buffer
		code := Main(c.args, Config{
			Runner: "go",
			Ops:    func(*Node) (ops.Client, error) { return refusing{}, nil },
			Stdin:  strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &stderr,
		})
		if code != ExitUsage || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 naming %q", c.args, code, stderr.String(), c.want)
		}
	}
}
