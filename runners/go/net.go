// The net cases: bee-go against a Bee node over loopback.

package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/ethswarm-tools/bee-bench/runners/go/harness"
	"github.com/ethswarm-tools/bee-bench/runners/go/harness/fixture"
	"github.com/ethswarm-tools/bee-bench/runners/go/harness/plan"
	"github.com/ethswarm-tools/bee-bench/runners/go/harness/transfer"
	bee "github.com/ethswarm-tools/bee-go"
	"github.com/ethswarm-tools/bee-go/pkg/api"
	"github.com/ethswarm-tools/bee-go/pkg/file"
	"github.com/ethswarm-tools/bee-go/pkg/swarm"
)

// Net cases: bee-go against a Bee node. Every figure is client <-> local Bee over loopback with
// deferred uploads, not Swarm-network throughput.

// beeNode is the bee-go side of --bee-url/--batch-id.
type beeNode struct {
	client *bee.Client
	batch  swarm.BatchID
	// ranged is a second client whose transport adds the Range header a request's context
	// carries: bee-go's DownloadData has no range option.
	ranged *bee.Client
}

var (
	nodesMu sync.Mutex
	nodes   = map[harness.Node]*beeNode{}
)

// nodeFor returns the (cached) clients for a node. NewClient's default *http.Client bounds
// every request to 60 s (bee.DefaultHTTPTimeout), too short for 100 MiB-1 GiB bodies; the runner
// passes a client whose transport bounds each call by the node's CallTimeout (half the case
// timeout) instead, and the case timeout (a context) bounds the case.
func nodeFor(n *harness.Node) (*beeNode, error) {
	nodesMu.Lock()
	defer nodesMu.Unlock()
	if b, ok := nodes[*n]; ok {
		return b, nil
	}
	batch, err := swarm.BatchIDFromHex(n.BatchID)
	if err != nil {
		return nil, fmt.Errorf("--batch-id: %w", err)
	}
	bounded := callTransport{base: http.DefaultTransport, limit: n.CallTimeout}
	client, err := bee.NewClient(n.URL, bee.WithHTTPClient(&http.Client{Transport: bounded}))
	if err != nil {
		return nil, err
	}
	ranged, err := bee.NewClient(n.URL, bee.WithHTTPClient(&http.Client{Transport: rangeTransport{bounded}}))
	if err != nil {
		return nil, err
	}
	b := &beeNode{client: client, batch: batch, ranged: ranged}
	nodes[*n] = b
	return b, nil
}

// nodeCase is a net case: a harness.Case that also takes the node's clients.
type nodeCase func(ctx context.Context, env *harness.Env, b *beeNode, p plan.Params) (*harness.Bench, error)

// onNode makes a nodeCase a harness.Case, the clients found (once per node) before setup.
func onNode(c nodeCase) harness.Case {
	return func(ctx context.Context, env *harness.Env, p plan.Params) (*harness.Bench, error) {
		b, err := nodeFor(env.Node)
		if err != nil {
			return nil, err
		}
		return c(ctx, env, b, p)
	}
}

type rangeKey struct{}

// rangeTransport sets the Range header from the request context (see beeNode.ranged).
type rangeTransport struct{ base http.RoundTripper }

func (t rangeTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if r, ok := req.Context().Value(rangeKey{}).(string); ok {
		req = req.Clone(req.Context())
		req.Header.Set("Range", r)
	}
	return t.base.RoundTrip(req)
}

func deferred() api.UploadOptions {
	yes := true
	return api.UploadOptions{Deferred: &yes}
}

// notOnThisNode reports whether the node answered 501 Not Implemented (a dev node's answer to
// SOC and feed writes).
func notOnThisNode(err error) bool {
	rerr, ok := swarm.IsBeeResponseError(err)
	return ok && rerr.Status == http.StatusNotImplemented
}

// nodeLimitation is the skip reason of a 501 to a write, worded as in the other runners.
func nodeLimitation(what string) string {
	return "the Bee node answers 501 Not Implemented to " + what + ": a dev node (bee dev) has no single-owner-chunk (SOC) or feed writes"
}

// salted is an upload buffer: an 8-byte salt, refreshed before every upload, then the fixture.
type salted struct{ buf []byte }

func newSalted(env *harness.Env, n int) *salted {
	return &salted{buf: fixture.Salted([8]byte{}, env.Fixtures.Data(n))}
}

func (s *salted) resalt(env *harness.Env) {
	salt := env.Salt()
	copy(s.buf, salt[:])
}

// saltedWrite is one write under a fresh 32-byte name (feed topic, SOC identifier): from the
// next salt, name = SHA-256(salt) and payload = salt || data[0, n-8), n bytes in all.
type saltedWrite struct {
	name    [32]byte
	payload []byte
}

func nextSaltedWrite(env *harness.Env, n int) saltedWrite {
	salt := env.Salt()
	return saltedWrite{name: sha256.Sum256(salt[:]), payload: fixture.Salted(salt, env.Fixtures.Data(n-8))}
}

// uploadSalted uploads salt || data[0, n) via /bytes, untimed; it returns the reference and
// the bytes uploaded.
func uploadSalted(ctx context.Context, env *harness.Env, b *beeNode, n int) (swarm.Reference, []byte, error) {
	s := newSalted(env, n)
	s.resalt(env)
	opts := &api.RedundantUploadOptions{UploadOptions: deferred()}
	res, err := b.client.File.UploadData(ctx, b.batch, bytes.NewReader(s.buf), opts)
	if err != nil {
		return swarm.Reference{}, nil, fmt.Errorf("pre-upload: %w", err)
	}
	return res.Reference, s.buf, nil
}

func stampsList(_ context.Context, env *harness.Env, b *beeNode, _ plan.Params) (*harness.Bench, error) {
	return &harness.Bench{Op: func(ctx context.Context) error {
		_, err := b.client.Postage.GetPostageBatches(ctx)
		return err
	}}, nil
}

func stampsConcurrent(_ context.Context, env *harness.Env, b *beeNode, p plan.Params) (*harness.Bench, error) {
	count := p.Int("count")
	return &harness.Bench{Op: func(ctx context.Context) error {
		return harness.Parallel(count, func(int) error {
			_, err := b.client.Postage.GetPostageBatches(ctx)
			return err
		})
	}}, nil
}

// feedPayloadBytes is the size of a feed update's payload: the salt then data[0, 24).
const feedPayloadBytes = 32

// key0 is private key 0 of the fixtures, the owner of every feed and SOC the runner writes.
func key0(env *harness.Env) (swarm.PrivateKey, error) {
	seed := env.Fixtures.Key(0)
	return swarm.NewPrivateKey(seed[:])
}

// readFeed reads the latest update, retrying while the node has not indexed a fresh write yet
// (404); the retries are part of the measured cost.
func readFeed(ctx context.Context, r *file.FeedReader) error {
	for {
		_, err := r.Download(ctx)
		rerr, ok := swarm.IsBeeResponseError(err)
		if err == nil || !ok || rerr.Status != http.StatusNotFound {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// feedUpdate is a writer for key 0 under a fresh topic and the payload to write to it.
type feedUpdate struct {
	w       *file.FeedWriter
	payload []byte
}

// newFeedUpdate: topic = SHA-256(salt), payload = salt || data[0, 24), from one fresh salt.
func newFeedUpdate(env *harness.Env, b *beeNode, key swarm.PrivateKey) (feedUpdate, error) {
	sw := nextSaltedWrite(env, feedPayloadBytes)
	topic, err := swarm.NewTopic(sw.name[:])
	if err != nil {
		return feedUpdate{}, err
	}
	return feedUpdate{w: b.client.File.MakeFeedWriter(key, topic), payload: sw.payload}, nil
}

// writeFirstFeed writes one update under a fresh topic; a 501 means the node has no SOC writes.
func writeFirstFeed(ctx context.Context, env *harness.Env, b *beeNode, key swarm.PrivateKey) (*file.FeedWriter, error) {
	u, err := newFeedUpdate(env, b, key)
	if err != nil {
		return nil, err
	}
	w := u.w
	if _, err := w.Upload(ctx, b.batch, u.payload); err != nil {
		if notOnThisNode(err) {
			return nil, harness.Skip(nodeLimitation("feed writes (POST /soc)"))
		}
		return nil, fmt.Errorf("feed write: %w", err)
	}
	if err := readFeed(ctx, w.FeedReader); err != nil {
		return nil, fmt.Errorf("feed read: %w", err)
	}
	return w, nil
}

// feedFresh: FeedWriter.Upload (next index lookup, sign, POST /soc) under a fresh topic, then
// FeedReader.Download (GET /feeds).
func feedFresh(ctx context.Context, env *harness.Env, b *beeNode, _ plan.Params) (*harness.Bench, error) {
	key, err := key0(env)
	if err != nil {
		return nil, err
	}
	if _, err := writeFirstFeed(ctx, env, b, key); err != nil { // probes the node's SOC support
		return nil, err
	}
	var u feedUpdate
	return &harness.Bench{
		Before: func(context.Context) error {
			var err error
			u, err = newFeedUpdate(env, b, key)
			return err
		},
		Op: func(ctx context.Context) error {
			if _, err := u.w.Upload(ctx, b.batch, u.payload); err != nil {
				return err
			}
			return readFeed(ctx, u.w.FeedReader)
		},
	}, nil
}

// feedWarm: `reads` FeedReader.Download of a feed written and read once during setup.
func feedWarm(ctx context.Context, env *harness.Env, b *beeNode, p plan.Params) (*harness.Bench, error) {
	key, err := key0(env)
	if err != nil {
		return nil, err
	}
	w, err := writeFirstFeed(ctx, env, b, key)
	if err != nil {
		return nil, err
	}
	reads := p.Int("reads")
	return &harness.Bench{Op: func(ctx context.Context) error {
		for i := 0; i < reads; i++ {
			if _, err := w.FeedReader.Download(ctx); err != nil {
				return err
			}
		}
		return nil
	}}, nil
}

// uploadName is the file name of every /bzz upload, as in the other runners (it is part of the
// manifest, so of the reference the digest compares).
const uploadName = "bench.bin"

// uploadBench uploads salt || data[0, n) once per timed iteration (resalted before it, untimed).
// With digest, its digest is the reference Bee returns for data[0, n) itself, uploaded the same
// way (same level) once, untimed under the case's context: comparable across clients and with
// Bee's own reference at that level. A direct upload (o.Deferred false) is probed once in setup,
// untimed: a node that refuses it (a dev node answers 400) skips the unit with its answer.
func uploadBench(ctx context.Context, env *harness.Env, n int, digest bool, o transfer.Options, upload func(context.Context, []byte) (swarm.Reference, error)) (*harness.Bench, error) {
	body := newSalted(env, n)
	if o.Deferred != nil && !*o.Deferred {
		body.resalt(env)
		if _, err := upload(ctx, body.buf); err != nil {
			if rerr, ok := swarm.IsBeeResponseError(err); ok && rerr.Status == http.StatusBadRequest {
				return nil, harness.Skip("the node refuses direct uploads: " + describe(err).Error())
			}
			return nil, fmt.Errorf("direct upload probe: %w", err)
		}
	}
	bench := &harness.Bench{
		Before: func(context.Context) error { body.resalt(env); return nil },
		Op: func(ctx context.Context) error {
			_, err := upload(ctx, body.buf)
			return err
		},
	}
	if digest {
		bench.Output = func() ([]byte, error) {
			ref, err := upload(ctx, env.Fixtures.Data(n))
			if err != nil {
				return nil, fmt.Errorf("unsalted upload: %w", err)
			}
			return ref.Raw(), nil
		}
	}
	return bench, nil
}

// bzzUploadWith: UploadFile of a salted buffer. Plain uploads take the level and mode of the
// param (absent: bee-go's defaults, no header); the encrypted one stays deferred.
func bzzUploadWith(ctx context.Context, env *harness.Env, b *beeNode, p plan.Params, encrypt bool) (*harness.Bench, error) {
	opts := &api.FileUploadOptions{UploadOptions: deferred()}
	var o transfer.Options
	if encrypt {
		opts.Encrypt = &encrypt
	} else {
		var err error
		if o, err = transfer.FromParams(p, transfer.Upload); err != nil {
			return nil, err
		}
		opts = fileUploadOptions(o)
	}
	// Encrypted references are random: only the plain upload has a digest.
	return uploadBench(ctx, env, p.Int("bytes"), !encrypt, o, func(ctx context.Context, data []byte) (swarm.Reference, error) {
		res, err := b.client.File.UploadFile(ctx, b.batch, bytes.NewReader(data), uploadName, "application/octet-stream", opts)
		if err != nil {
			return swarm.Reference{}, err
		}
		return res.Reference, nil
	})
}

func bzzUpload(ctx context.Context, env *harness.Env, b *beeNode, p plan.Params) (*harness.Bench, error) {
	return bzzUploadWith(ctx, env, b, p, false)
}

func bzzUploadEncrypted(ctx context.Context, env *harness.Env, b *beeNode, p plan.Params) (*harness.Bench, error) {
	return bzzUploadWith(ctx, env, b, p, true)
}

// diskFixture returns the path of salt-placeholder || data[:n] under the fixtures folder,
// writing it unless a file of the right size and tail is already there.
func diskFixture(env *harness.Env, n int) (string, error) {
	path := filepath.Join(env.FixturesDir, fmt.Sprintf("bzz-upload-%d.bin", n))
	if fileHolds(path, env, n) {
		return path, nil
	}
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return "", err
	}
	// Stream the fixture blocks to disk without caching them in memory: this case is about
	// memory use while streaming.
	err = writeData(f, env, n)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return "", err
	}
	return path, os.Rename(tmp, path)
}

func writeData(w io.Writer, env *harness.Env, n int) error {
	if _, err := w.Write(make([]byte, 8)); err != nil { // the salt, rewritten before each upload
		return err
	}
	return env.Fixtures.WriteData(w, int64(n))
}

// fileHolds checks size and the last data block of an existing disk fixture.
func fileHolds(path string, env *harness.Env, n int) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.Size() != int64(8+n) || n == 0 {
		return false
	}
	last := (n - 1) / 32
	want := env.Fixtures.DataBlock(uint64(last))
	got := make([]byte, n-32*last)
	if _, err := f.ReadAt(got, int64(8+32*last)); err != nil {
		return false
	}
	return bytes.Equal(got, want[:len(got)])
}

// bzzUploadFromDisk: UploadFile with an *os.File as the body (streamed by net/http, chunked).
// Its digest is the reference of data[:n] streamed unsalted from the same file, once, untimed.
func bzzUploadFromDisk(ctx context.Context, env *harness.Env, b *beeNode, p plan.Params) (*harness.Bench, error) {
	n := p.Int("bytes")
	path, err := diskFixture(env, n)
	if err != nil {
		return nil, fmt.Errorf("disk fixture: %w", err)
	}
	opts := &api.FileUploadOptions{UploadOptions: deferred()}
	var f *os.File
	closeFile := func() {
		if f != nil {
			f.Close()
			f = nil
		}
	}
	return &harness.Bench{
		// Untimed: a fresh salt in place, then open the file for the upload.
		Before: func(context.Context) error {
			closeFile()
			salt := env.Salt()
			w, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			_, err = w.WriteAt(salt[:], 0)
			if cerr := w.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
			f, err = os.Open(path)
			return err
		},
		Op: func(ctx context.Context) error {
			_, err := b.client.File.UploadFile(ctx, b.batch, f, uploadName, "application/octet-stream", opts)
			return err
		},
		// The same file streamed past its salt: data[:n] unsalted, as net.bzz.upload's digest.
		Output: func() ([]byte, error) {
			plain, err := os.Open(path)
			if err != nil {
				return nil, err
			}
			defer plain.Close()
			res, err := b.client.File.UploadFile(ctx, b.batch, io.NewSectionReader(plain, 8, int64(n)), uploadName, "application/octet-stream", opts)
			if err != nil {
				return nil, fmt.Errorf("unsalted upload: %w", err)
			}
			return res.Reference.Raw(), nil
		},
		Close: closeFile,
	}, nil
}

// bytesUpload: UploadData of a salted buffer at the param's level and mode (absent: bee-go's
// defaults, no header). At level 0 its digest is comparable with cpu.bmt.file-root's offline
// root of the same bytes; at level L with Bee's own reference for them at L.
func bytesUpload(ctx context.Context, env *harness.Env, b *beeNode, p plan.Params) (*harness.Bench, error) {
	o, err := transfer.FromParams(p, transfer.Upload)
	if err != nil {
		return nil, err
	}
	opts := bytesUploadOptions(o)
	return uploadBench(ctx, env, p.Int("bytes"), true, o, func(ctx context.Context, data []byte) (swarm.Reference, error) {
		res, err := b.client.File.UploadData(ctx, b.batch, bytes.NewReader(data), opts)
		if err != nil {
			return swarm.Reference{}, err
		}
		return res.Reference, nil
	})
}

// tagsUploadWithTag: CreateTag, UploadData with the tag, GetTag. Its digest is the reference of
// the unsalted fixture uploaded under a fresh tag (the BMT root, as bytesUpload).
func tagsUploadWithTag(ctx context.Context, env *harness.Env, b *beeNode, p plan.Params) (*harness.Bench, error) {
	return uploadBench(ctx, env, p.Int("bytes"), true, transfer.Options{}, func(ctx context.Context, data []byte) (swarm.Reference, error) {
		tag, err := b.client.API.CreateTag(ctx)
		if err != nil {
			return swarm.Reference{}, err
		}
		opts := &api.RedundantUploadOptions{UploadOptions: deferred()}
		opts.Tag = tag.UID
		res, err := b.client.File.UploadData(ctx, b.batch, bytes.NewReader(data), opts)
		if err != nil {
			return swarm.Reference{}, err
		}
		_, err = b.client.API.GetTag(ctx, tag.UID)
		return res.Reference, err
	})
}

// content is a download's expected length and SHA-256.
type content struct {
	n   int64
	sum [32]byte
}

func contentOf(b []byte) content { return content{int64(len(b)), sha256.Sum256(b)} }

// drain reads a body to its end into a SHA-256 and checks it against the upload, worded as in
// the other runners.
func drain(rc io.ReadCloser, call string, want content) error {
	defer rc.Close()
	h := sha256.New()
	n, err := io.Copy(h, rc)
	if err != nil {
		return err
	}
	var got [32]byte
	h.Sum(got[:0])
	if n != want.n || got != want.sum {
		return fmt.Errorf("content mismatch on %s: got %d bytes (sha256 %x), the upload was %d bytes (sha256 %x)", call, n, got[:8], want.n, want.sum[:8])
	}
	return nil
}

// downloadBench is a download case: salt || data[0, bytes) uploaded during setup (deferred, at
// the param's level), then downloaded once untimed and compared byte for byte with the upload (a
// wrong byte fails the unit, it is never a time); each timed iteration downloads it with the
// param's strategy and fallback and drains the body into a counting sink, checking the count.
func downloadBench(ctx context.Context, env *harness.Env, p plan.Params, call string,
	upload func(context.Context, []byte, transfer.Options) (swarm.Reference, error),
	download func(context.Context, swarm.Reference, *api.DownloadOptions) (io.ReadCloser, error),
) (*harness.Bench, error) {
	o, err := transfer.FromParams(p, transfer.Download)
	if err != nil {
		return nil, err
	}
	body := newSalted(env, p.Int("bytes"))
	body.resalt(env)
	ref, err := upload(ctx, body.buf, deferredUpload(o))
	if err != nil {
		return nil, fmt.Errorf("pre-upload: %w", err)
	}
	opts := downloadOptions(o)
	rc, err := download(ctx, ref, opts)
	if err != nil {
		return nil, fmt.Errorf("verification download: %w", err)
	}
	if err := compareBody(rc, call, body.buf); err != nil {
		return nil, err
	}
	size := int64(len(body.buf))
	body = nil // only the reference and the size are needed from here on
	return &harness.Bench{Op: func(ctx context.Context) error {
		rc, err := download(ctx, ref, opts)
		if err != nil {
			return err
		}
		defer rc.Close()
		n, err := io.Copy(io.Discard, rc)
		if err != nil {
			return err
		}
		if n != size {
			return fmt.Errorf("content mismatch on %s: got %d bytes, the upload was %d bytes", call, n, size)
		}
		return nil
	}}, nil
}

// compareBody reads a body to its end, comparing it byte for byte with want as it arrives and
// hashing it, so a difference is worded as in the other runners (length and SHA-256 of both
// sides, then where the first difference is).
func compareBody(rc io.ReadCloser, call string, want []byte) error {
	defer rc.Close()
	c := &comparer{want: want, at: -1}
	h := sha256.New()
	if _, err := io.Copy(io.MultiWriter(c, h), rc); err != nil {
		return fmt.Errorf("verification download: %w", err)
	}
	if c.at < 0 && c.n == int64(len(want)) {
		return nil
	}
	var got [32]byte
	h.Sum(got[:0])
	up := sha256.Sum256(want)
	msg := fmt.Sprintf("content mismatch on %s: got %d bytes (sha256 %x), the upload was %d bytes (sha256 %x)", call, c.n, got[:8], len(want), up[:8])
	if c.at >= 0 {
		msg += fmt.Sprintf("; first difference at byte %d", c.at)
	}
	return errors.New(msg)
}

// comparer is a sink that checks what it is given against want; at is the first differing
// offset (-1: none so far), n the bytes given. It takes the whole body, so its length is known.
type comparer struct {
	want []byte
	n    int64
	at   int64
}

func (c *comparer) Write(p []byte) (int, error) {
	if c.at < 0 {
		rest := c.want[min(c.n, int64(len(c.want))):]
		for i, x := range p {
			if i >= len(rest) || x != rest[i] {
				c.at = c.n + int64(i)
				break
			}
		}
	}
	c.n += int64(len(p))
	return len(p), nil
}

// bzzDownload: DownloadFile of an upload made during setup (UploadFile, one file).
func bzzDownload(ctx context.Context, env *harness.Env, b *beeNode, p plan.Params) (*harness.Bench, error) {
	return downloadBench(ctx, env, p, "GET /bzz",
		func(ctx context.Context, data []byte, o transfer.Options) (swarm.Reference, error) {
			res, err := b.client.File.UploadFile(ctx, b.batch, bytes.NewReader(data), uploadName, "application/octet-stream", fileUploadOptions(o))
			return res.Reference, err
		},
		func(ctx context.Context, ref swarm.Reference, opts *api.DownloadOptions) (io.ReadCloser, error) {
			rc, _, err := b.client.File.DownloadFile(ctx, ref, opts)
			return rc, err
		})
}

// bytesDownload: DownloadData of an upload made during setup (UploadData).
func bytesDownload(ctx context.Context, env *harness.Env, b *beeNode, p plan.Params) (*harness.Bench, error) {
	return downloadBench(ctx, env, p, "GET /bytes",
		func(ctx context.Context, data []byte, o transfer.Options) (swarm.Reference, error) {
			res, err := b.client.File.UploadData(ctx, b.batch, bytes.NewReader(data), bytesUploadOptions(o))
			return res.Reference, err
		},
		func(ctx context.Context, ref swarm.Reference, opts *api.DownloadOptions) (io.ReadCloser, error) {
			return b.client.File.DownloadData(ctx, ref, opts)
		})
}

// bytesHead: ProbeData (HEAD /bytes/{ref}) of a 1 MiB upload made during setup.
func bytesHead(ctx context.Context, env *harness.Env, b *beeNode, p plan.Params) (*harness.Bench, error) {
	ref, _, err := uploadSalted(ctx, env, b, 1<<20)
	if err != nil {
		return nil, err
	}
	count := p.Int("count")
	return &harness.Bench{Op: func(ctx context.Context) error {
		for i := 0; i < count; i++ {
			if _, err := b.client.File.ProbeData(ctx, ref); err != nil {
				return err
			}
		}
		return nil
	}}, nil
}

const rangeBytes = 65536

// bytesDownloadRange: DownloadData with Range: bytes=0-65535 (added by the ranged client's
// transport), body drained and its length checked.
func bytesDownloadRange(ctx context.Context, env *harness.Env, b *beeNode, p plan.Params) (*harness.Bench, error) {
	ref, uploaded, err := uploadSalted(ctx, env, b, p.Int("bytes"))
	if err != nil {
		return nil, err
	}
	want := contentOf(uploaded[:min(rangeBytes, len(uploaded))])
	ranges := p.Int("ranges")
	header := fmt.Sprintf("bytes=0-%d", rangeBytes-1)
	return &harness.Bench{Op: func(ctx context.Context) error {
		rctx := context.WithValue(ctx, rangeKey{}, header)
		for i := 0; i < ranges; i++ {
			rc, err := b.ranged.File.DownloadData(rctx, ref, nil)
			if err != nil {
				return err
			}
			if err := drain(rc, "ranged GET /bytes", want); err != nil {
				return err
			}
		}
		return nil
	}}, nil
}

// pinAddList: Pin each of `count` uploads made during setup (4096 bytes each: salt ||
// data[0, 4088)), ListPins, Unpin each.
func pinAddList(ctx context.Context, env *harness.Env, b *beeNode, p plan.Params) (*harness.Bench, error) {
	refs := make([]swarm.Reference, p.Int("count"))
	for i := range refs {
		ref, _, err := uploadSalted(ctx, env, b, env.ChunkPayloadBytes-8)
		if err != nil {
			return nil, err
		}
		refs[i] = ref
	}
	return &harness.Bench{Op: func(ctx context.Context) error {
		for _, r := range refs {
			if err := b.client.API.Pin(ctx, r); err != nil {
				return err
			}
		}
		if _, err := b.client.API.ListPins(ctx); err != nil {
			return err
		}
		for _, r := range refs {
			if err := b.client.API.Unpin(ctx, r); err != nil {
				return err
			}
		}
		return nil
	}}, nil
}

// chunksUpload: UploadChunk of `count` content-addressed chunks built before each iteration
// (payload j = salt || the first 4088 bytes of chunk payload j), all under one tag. Its digest
// is sha256 of the addresses Bee returns for the unsalted chunks (payload j whole), once, untimed.
func chunksUpload(ctx context.Context, env *harness.Env, b *beeNode, p plan.Params) (*harness.Bench, error) {
	tag, err := b.client.API.CreateTag(ctx)
	if err != nil {
		return nil, fmt.Errorf("create tag: %w", err)
	}
	opts := &api.UploadOptions{Tag: tag.UID}
	size := env.ChunkPayloadBytes
	payloads := chunkPayloads(env, p.Int("count"), size)
	wires := make([][]byte, len(payloads))
	return &harness.Bench{
		Before: func(context.Context) error {
			for j, payload := range payloads {
				c, err := swarm.MakeContentAddressedChunk(fixture.Salted(env.Salt(), payload[:size-8]))
				if err != nil {
					return err
				}
				wires[j] = c.Data()
			}
			return nil
		},
		Op: func(ctx context.Context) error {
			for _, w := range wires {
				if _, err := b.client.File.UploadChunk(ctx, b.batch, w, opts); err != nil {
					return err
				}
			}
			return nil
		},
		Output: func() ([]byte, error) {
			refs := make([]swarm.Reference, len(payloads))
			for j, payload := range payloads {
				c, err := swarm.MakeContentAddressedChunk(payload)
				if err != nil {
					return nil, err
				}
				res, err := b.client.File.UploadChunk(ctx, b.batch, c.Data(), opts)
				if err != nil {
					return nil, fmt.Errorf("unsalted upload: %w", err)
				}
				refs[j] = res.Reference
			}
			return concat(refs, refBytes), nil
		},
	}, nil
}

// streamDirUpload: StreamCollectionEntries (chunk by chunk over POST /chunks, then the manifest)
// of `files` files f%04d.bin of file_bytes each = its own salt || data[file_bytes*i,
// file_bytes*(i+1) - 8), under one tag. Its digest is the manifest reference of the unsalted
// files data[file_bytes*i, file_bytes*(i+1)), once, untimed: the client builds that manifest.
func streamDirUpload(ctx context.Context, env *harness.Env, b *beeNode, p plan.Params) (*harness.Bench, error) {
	tag, err := b.client.API.CreateTag(ctx)
	if err != nil {
		return nil, fmt.Errorf("create tag: %w", err)
	}
	opts := &file.StreamOptions{}
	opts.Tag = tag.UID
	files, size := p.Int("files"), p.Int("file_bytes")
	data := env.Fixtures.Data(files * size)
	entries := make([]file.CollectionEntry, files)
	return &harness.Bench{
		Before: func(context.Context) error {
			for i := range entries {
				entries[i] = file.CollectionEntry{Path: fmt.Sprintf("f%04d.bin", i), Data: fixture.Salted(env.Salt(), data[i*size:(i+1)*size-8])}
			}
			return nil
		},
		Op: func(ctx context.Context) error {
			_, err := b.client.File.StreamCollectionEntries(ctx, b.batch, entries, opts)
			return err
		},
		Output: func() ([]byte, error) {
			plain := make([]file.CollectionEntry, files)
			for i := range plain {
				plain[i] = file.CollectionEntry{Path: fmt.Sprintf("f%04d.bin", i), Data: data[i*size : (i+1)*size]}
			}
			res, err := b.client.File.StreamCollectionEntries(ctx, b.batch, plain, opts)
			if err != nil {
				return nil, fmt.Errorf("unsalted upload: %w", err)
			}
			return res.Reference.Raw(), nil
		},
	}, nil
}

// socUpload: `count` SOCWriter.Upload (sign, POST /soc), key 0, each from its own salt:
// identifier = SHA-256(salt), payload = salt || data[0, 4088).
func socUpload(ctx context.Context, env *harness.Env, b *beeNode, p plan.Params) (*harness.Bench, error) {
	key, err := key0(env)
	if err != nil {
		return nil, err
	}
	signer, err := key.ToECDSA()
	if err != nil {
		return nil, err
	}
	w, err := b.client.File.MakeSOCWriter(signer)
	if err != nil {
		return nil, err
	}
	type soc struct {
		id      swarm.Identifier
		payload []byte
	}
	socs := make([]soc, p.Int("count"))
	fill := func(context.Context) error {
		for j := range socs {
			sw := nextSaltedWrite(env, env.ChunkPayloadBytes)
			id, err := swarm.NewIdentifier(sw.name[:])
			if err != nil {
				return err
			}
			socs[j] = soc{id, sw.payload}
		}
		return nil
	}
	// Probe: one write tells whether the node takes SOCs at all.
	if err := fill(ctx); err != nil {
		return nil, err
	}
	if _, err := w.Upload(ctx, b.batch, socs[0].id, socs[0].payload, nil); err != nil {
		if notOnThisNode(err) {
			return nil, harness.Skip(nodeLimitation("SOC writes (POST /soc)"))
		}
		return nil, fmt.Errorf("probe SOC write: %w", err)
	}
	return &harness.Bench{
		Before: fill,
		Op: func(ctx context.Context) error {
			for _, s := range socs {
				if _, err := w.Upload(ctx, b.batch, s.id, s.payload, nil); err != nil {
					return err
				}
			}
			return nil
		},
	}, nil
}
