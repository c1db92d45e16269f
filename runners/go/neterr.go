// Calls to the node, bounded in time, their failures worded as in the other runners.

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"time"

	"github.com/ethswarm-tools/bee-bench/runners/go/harness"
	"github.com/ethswarm-tools/bee-bench/runners/go/harness/plan"
	"github.com/ethswarm-tools/bee-go/pkg/swarm"
)

// Calls to the node are bounded and their failures worded as in the other runners:
// "no answer in 60 s to /stamps", "Bee answered 404 to POST /bytes: <Bee's own message>",
// "cannot connect to the Bee node (ECONNREFUSED) for /stamps" (transport errors name the path
// only: bee-rs's do not carry the method).

// noAnswer is a call the node did not answer within the call timeout.
type noAnswer struct {
	after time.Duration
	path  string
}

func (e *noAnswer) Error() string {
	return fmt.Sprintf("no answer in %g s to %s", e.after.Seconds(), e.path)
}

// callTransport gives every request `limit` to be answered and its body read; the request's own
// context (the case timeout) still applies.
type callTransport struct {
	base  http.RoundTripper
	limit time.Duration
}

func (t callTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithTimeout(req.Context(), t.limit)
	resp, err := t.base.RoundTrip(req.WithContext(ctx))
	if err != nil {
		cancel()
		if errors.Is(ctx.Err(), context.DeadlineExceeded) && req.Context().Err() == nil {
			return nil, &noAnswer{after: t.limit, path: req.URL.Path}
		}
		return nil, err
	}
	resp.Body = cancelOnClose{resp.Body, cancel}
	return resp, nil
}

type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (b cancelOnClose) Close() error {
	defer b.cancel()
	return b.ReadCloser.Close()
}

// describe rewords a node error the common way, keeping any context the case added around it.
func describe(err error) error {
	if err == nil {
		return nil
	}
	if _, skip := harness.SkipReason(err); skip {
		return err
	}
	var inner error
	var uniform string
	var na *noAnswer
	var ue *url.Error
	if errors.As(err, &na) {
		inner, uniform = na, na.Error()
	} else if rerr, ok := swarm.IsBeeResponseError(err); ok {
		inner, uniform = rerr, fmt.Sprintf("Bee answered %d to %s %s", rerr.Status, rerr.Method, pathOf(rerr.URL))
		if m := beeMessage(rerr.ResponseBody); m != "" {
			uniform += ": " + m
		}
	} else if errors.As(err, &ue) && errors.Is(err, syscall.ECONNREFUSED) {
		inner, uniform = ue, "cannot connect to the Bee node (ECONNREFUSED) for "+pathOf(ue.URL)
	} else {
		return err
	}
	return errors.New(strings.Replace(err.Error(), inner.Error(), uniform, 1))
}

func pathOf(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.Path != "" {
		return u.Path
	}
	return raw
}

// beeMessage is Bee's own message from an error body ({"code":404,"message":"..."}).
func beeMessage(body []byte) string {
	var m struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(body, &m) == nil && m.Message != "" {
		return m.Message
	}
	s := strings.TrimSpace(string(body))
	if len(s) > 200 {
		s = s[:200]
	}
	return s
}

// described wraps a net case so that its setup and every step report node errors the common way.
func described(c harness.Case) harness.Case {
	return func(ctx context.Context, env *harness.Env, p plan.Params) (*harness.Bench, error) {
		b, err := c(ctx, env, p)
		if err != nil || b == nil {
			return b, describe(err)
		}
		op := b.Op
		b.Op = func(ctx context.Context) error { return describe(op(ctx)) }
		if before := b.Before; before != nil {
			b.Before = func(ctx context.Context) error { return describe(before(ctx)) }
		}
		if output := b.Output; output != nil {
			b.Output = func() ([]byte, error) {
				out, err := output()
				return out, describe(err)
			}
		}
		return b, nil
	}
}

// registry is the dispatch table: the CPU cases, and each net case given its node's clients and
// its failures worded by described.
func registry() harness.Registry {
	out := maps.Clone(cpuCases)
	for id, c := range netCases {
		out[id] = described(onNode(c))
	}
	return out
}
