// Command bee-bench-go is the Go runner of bee-bench: it runs the engine's resolved plans against
// github.com/ethswarm-tools/bee-go under the runner contract (runners/README.md). The harness
// (timing, results, command line) lives in the harness module; this package holds the cases.
package main

import (
	"context"
	"os"
	"runtime/debug"

	"github.com/ethswarm-tools/bee-bench/runners/go/harness"
	"github.com/ethswarm-tools/bee-bench/runners/go/harness/result"
)

const (
	clientName     = "github.com/ethswarm-tools/bee-go"
	defaultVersion = "v1.2.1" // the version go.mod requires
)

// Set by the build (see README.md): -ldflags "-X main.clientVersion=... -X main.clientCommit=...".
var (
	clientVersion string // e.g. v1.2.1, or `git describe` of a checkout
	clientSource  string // registry or path; only used when the binary has no build info
	clientCommit  string // the checkout's commit, for path builds
)

// cpuCases and netCases are the dispatch tables: one function per spec case id.
var cpuCases = harness.Registry{
	"cpu.harness.noop":            noop,
	"cpu.keccak.chunk-hash":       chunkHash,
	"cpu.keccak.parallel":         chunkHashParallel,
	"cpu.keccak.bulk":             keccakBulk,
	"cpu.bmt.file-root":           fileRoot,
	"cpu.bmt.encrypted-file-root": encryptedFileRoot,
	"cpu.ecdsa.sign":              sign,
	"cpu.ecdsa.verify":            verify,
	"cpu.identity.create":         identity,
	"cpu.manifest.hash":           manifestHash,
	"cpu.manifest.lookup-large":   manifestLookup,
}

var netCases = map[string]nodeCase{
	"net.stamps.list":           stampsList,
	"net.stamps.concurrent":     stampsConcurrent,
	"net.feed.write-read.fresh": feedFresh,
	"net.feed.write-read.warm":  feedWarm,
	"net.bzz.upload":            bzzUpload,
	"net.bzz.upload.encrypted":  bzzUploadEncrypted,
	"net.bzz.upload-from-disk":  bzzUploadFromDisk,
	"net.bytes.upload":          bytesUpload,
	"net.tags.upload-with-tag":  tagsUploadWithTag,
	"net.bzz.download":          bzzDownload,
	"net.bytes.download":        bytesDownload,
	"net.bytes.head":            bytesHead,
	"net.bytes.download.range":  bytesDownloadRange,
	"net.pin.add-list":          pinAddList,
	"net.chunks.upload":         chunksUpload,
	"net.stream-dir.upload":     streamDirUpload,
	"net.soc.upload":            socUpload,
}

func main() {
	os.Exit(harness.Main(os.Args[1:], harness.Config{
		Runner:     "go",
		Client:     clientIdentity(),
		Cases:      func(*harness.Node) (harness.Registry, error) { return registry(), nil },
		BeeVersion: beeVersion,
		Ops:        newOpsClient,
	}))
}

// clientIdentity reports the bee-go this binary was linked with. Whether bee-go came from the
// module registry or a local checkout is read from the binary's own build info (a replace
// directive means a checkout), so a build cannot claim the wrong source; the version and commit
// of a checkout come from the build's -ldflags.
func clientIdentity() result.Client {
	c := result.Client{Name: clientName, Version: defaultVersion, Source: "registry", Commit: clientCommit}
	if clientSource != "" {
		c.Source = clientSource
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path != clientName {
				continue
			}
			c.Version, c.Source = d.Version, "registry"
			if d.Replace != nil {
				c.Source = "path"
				if v := d.Replace.Version; v != "" && v != "(devel)" {
					c.Version = v // a replacement by another module version; a folder reports (devel)
				}
			}
		}
	}
	if clientVersion != "" {
		c.Version = clientVersion
	}
	return c
}

func beeVersion(ctx context.Context, node *harness.Node) (string, error) {
	n, err := nodeFor(node)
	if err != nil {
		return "", err
	}
	h, err := n.client.Debug.GetHealth(ctx)
	if err != nil {
		return "", err
	}
	return h.Version, nil
}
