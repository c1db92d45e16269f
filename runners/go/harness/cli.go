// The runner's command line: the contract's subcommands, flags and exit codes.

package harness

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/ethswarm-tools/bee-bench/runners/go/harness/alloc"
	"github.com/ethswarm-tools/bee-bench/runners/go/harness/count/seed"
	"github.com/ethswarm-tools/bee-bench/runners/go/harness/fixture"
	"github.com/ethswarm-tools/bee-bench/runners/go/harness/ops"
	"github.com/ethswarm-tools/bee-bench/runners/go/harness/plan"
	"github.com/ethswarm-tools/bee-bench/runners/go/harness/result"
)

// Exit codes of the runner contract.
const (
	ExitOK     = 0 // the result file is written
	ExitBroken = 1 // the harness itself broke
	ExitUsage  = 2 // bad arguments or a bad plan
)

// UsageError is a command-line problem (exit 2), naming the flag or variable.
type UsageError struct {
	Flag string
	Msg  string
}

func (e *UsageError) Error() string { return fmt.Sprintf("%s: %s", e.Flag, e.Msg) }

// Config is what the runner's main package supplies.
type Config struct {
	Runner string        // "go"
	Client result.Client // the client library, as built
	// Cases builds the dispatch table; node is nil when no Bee node is given.
	Cases func(node *Node) (Registry, error)
	// BeeVersion asks the node for its version (result bee.version).
	BeeVersion func(ctx context.Context, node *Node) (string, error)
	// Ops builds the client the `ops` subcommand drives (node.CallTimeout is 0: each op brings
	// its own bound).
	Ops func(node *Node) (ops.Client, error)

	Stdin          io.Reader           // default os.Stdin
	Stdout, Stderr io.Writer           // default os.Stdout, os.Stderr
	Getenv         func(string) string // default os.Getenv
}

const usage = `usage:
  %[1]s run --plan FILE --out FILE [--fixtures DIR] [--bee-url URL --batch-id HEX]
  %[1]s ops --bee-url URL --batch-id HEX   (JSON lines on stdin, one answer per line on stdout)
  %[1]s info
(make the plan with: bee-bench plan --runner go [--profile P] [--case GLOB]... [--large])
`

// Main runs the command line (without the program name) and returns the exit code.
func Main(args []string, cfg Config) int {
	if cfg.Stdin == nil {
		cfg.Stdin = os.Stdin
	}
	if cfg.Stdout == nil {
		cfg.Stdout = os.Stdout
	}
	if cfg.Stderr == nil {
		cfg.Stderr = os.Stderr
	}
	if cfg.Getenv == nil {
		cfg.Getenv = os.Getenv
	}
	prog := "bee-bench-" + cfg.Runner
	if len(args) == 0 {
		fmt.Fprintf(cfg.Stderr, usage, prog)
		return ExitUsage
	}
	switch args[0] {
	case "info":
		return info(cfg)
	case "run", "ops":
		command := run
		if args[0] == "ops" {
			command = serveOps
		}
		err := command(args[1:], cfg, prog)
		var ue *UsageError
		var pe *plan.Error
		switch {
		case err == nil:
			return ExitOK
		case errors.Is(err, flag.ErrHelp):
			return ExitUsage
		case errors.As(err, &ue), errors.As(err, &pe):
			fmt.Fprintf(cfg.Stderr, "%s: %v\n", prog, err)
			return ExitUsage
		default:
			fmt.Fprintf(cfg.Stderr, "%s: harness error: %v\n", prog, err)
			return ExitBroken
		}
	case "-h", "--help", "help":
		fmt.Fprintf(cfg.Stdout, usage, prog)
		return ExitOK
	default:
		fmt.Fprintf(cfg.Stderr, "%s: unknown command %q\n", prog, args[0])
		fmt.Fprintf(cfg.Stderr, usage, prog)
		return ExitUsage
	}
}

// Info is what `info` prints.
type Info struct {
	Runner  string        `json:"runner"`
	Client  result.Client `json:"client"`
	Runtime string        `json:"runtime"`
	Host    result.Host   `json:"host"`
}

func info(cfg Config) int {
	enc := json.NewEncoder(cfg.Stdout)
	if err := enc.Encode(Info{Runner: cfg.Runner, Client: cfg.Client, Runtime: result.Runtime(), Host: result.ThisHost()}); err != nil {
		fmt.Fprintf(cfg.Stderr, "info: %v\n", err)
		return ExitBroken
	}
	return ExitOK
}

// options are the parsed flags of `run`.
type options struct {
	planPath, fixtures, beeURL, batchID, out string
}

var hex64 = regexp.MustCompile(`^[0-9a-fA-F]{64}$`)

// retired are the flags of the runner that read the spec itself; the engine now resolves them
// into the plan.
var retired = []string{"spec", "case", "profile", "large"}

// retiredFlag names the first retired flag in args (-x, --x or --x=v), "" for none.
func retiredFlag(args []string) string {
	for _, a := range args {
		if a == "--" {
			break
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && slices.Contains(retired, name) {
			return "--" + name
		}
	}
	return ""
}

func parseRun(args []string, stderr io.Writer, prog string) (*options, error) {
	if f := retiredFlag(args); f != "" {
		return nil, &UsageError{Flag: f, Msg: "the runner no longer reads the spec: pass --plan FILE, made by `bee-bench plan --runner go` (which takes --profile, --case and --large)"}
	}
	var o options
	fs := flag.NewFlagSet(prog+" run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintf(stderr, usage, prog) }
	fs.StringVar(&o.planPath, "plan", "", "the resolved plan (bee-bench plan --runner go)")
	fs.StringVar(&o.fixtures, "fixtures", "", "folder for on-disk fixtures (default: a temporary folder)")
	fs.StringVar(&o.beeURL, "bee-url", "", "Bee API URL for net.* cases")
	fs.StringVar(&o.batchID, "batch-id", "", "postage batch id (64 hex) for net.* cases")
	fs.StringVar(&o.out, "out", "", "the result file to write")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, &UsageError{Flag: "arguments", Msg: err.Error()}
	}
	if fs.NArg() > 0 {
		return nil, &UsageError{Flag: "arguments", Msg: fmt.Sprintf("unexpected %q", fs.Arg(0))}
	}
	if o.planPath == "" {
		return nil, &UsageError{Flag: "--plan", Msg: "required (make one with bee-bench plan --runner go)"}
	}
	if o.out == "" {
		return nil, &UsageError{Flag: "--out", Msg: "required"}
	}
	if (o.beeURL == "") != (o.batchID == "") {
		return nil, &UsageError{Flag: "--bee-url/--batch-id", Msg: "give both or neither"}
	}
	if o.beeURL != "" {
		if err := checkNode(o.beeURL, o.batchID); err != nil {
			return nil, err
		}
	}
	return &o, nil
}

// checkNode checks the values of --bee-url and --batch-id.
func checkNode(beeURL, batchID string) error {
	u, err := url.Parse(beeURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return &UsageError{Flag: "--bee-url", Msg: fmt.Sprintf("want an http(s) URL, got %q", beeURL)}
	}
	if !hex64.MatchString(strings.TrimPrefix(batchID, "0x")) {
		return &UsageError{Flag: "--batch-id", Msg: "want 64 hex digits"}
	}
	return nil
}

// nodeOf is the Node of valid --bee-url and --batch-id values.
func nodeOf(beeURL, batchID string, callTimeout time.Duration) *Node {
	return &Node{
		URL:         strings.TrimRight(beeURL, "/"),
		BatchID:     strings.ToLower(strings.TrimPrefix(batchID, "0x")),
		CallTimeout: callTimeout,
	}
}

// serveOps is the `ops` subcommand: the ops protocol (package ops) over stdin and stdout
// against the node, until stdin ends.
func serveOps(args []string, cfg Config, prog string) error {
	fs := flag.NewFlagSet(prog+" ops", flag.ContinueOnError)
	fs.SetOutput(cfg.Stderr)
	fs.Usage = func() { fmt.Fprintf(cfg.Stderr, usage, prog) }
	var beeURL, batchID string
	fs.StringVar(&beeURL, "bee-url", "", "Bee API URL")
	fs.StringVar(&batchID, "batch-id", "", "postage batch id (64 hex) for uploads")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return &UsageError{Flag: "arguments", Msg: err.Error()}
	}
	switch {
	case fs.NArg() > 0:
		return &UsageError{Flag: "arguments", Msg: fmt.Sprintf("unexpected %q", fs.Arg(0))}
	case beeURL == "":
		return &UsageError{Flag: "--bee-url", Msg: "required"}
	case batchID == "":
		return &UsageError{Flag: "--batch-id", Msg: "required"}
	}
	if err := checkNode(beeURL, batchID); err != nil {
		return err
	}
	if cfg.Ops == nil {
		return &UsageError{Flag: "ops", Msg: "this runner has no ops client"}
	}
	client, err := cfg.Ops(nodeOf(beeURL, batchID, 0))
	if err != nil {
		return fmt.Errorf("building the client: %w", err)
	}
	id := ops.Identity{Name: cfg.Client.Name, Version: cfg.Client.Version}
	if err := ops.Serve(context.Background(), cfg.Stdin, cfg.Stdout, cfg.Runner, id, client); err != nil {
		return fmt.Errorf("ops: %w", err)
	}
	return nil
}

func run(args []string, cfg Config, prog string) error {
	o, err := parseRun(args, cfg.Stderr, prog)
	if err != nil {
		return err
	}
	modes, err := ParseModes(cfg.Getenv)
	if err != nil {
		return err
	}
	if modes.Count && !seed.Fixed() {
		fmt.Fprintf(cfg.Stderr, "warning: counting in a build without cgo, so Go's hash key differs between processes and map-heavy counts move by up to 0.4%% (fix: build with CGO_ENABLED=1 and a C compiler)\n")
	}
	data, err := os.ReadFile(o.planPath)
	if err != nil {
		return &UsageError{Flag: "--plan", Msg: err.Error()}
	}
	pl, err := plan.Parse(o.planPath, data, cfg.Runner)
	if err != nil {
		return err
	}
	if modes.Allocs {
		alloc.Configure()
	}

	var node *Node
	if o.beeURL != "" {
		node = nodeOf(o.beeURL, o.batchID, shortestTimeout(pl.Units)/2)
	}
	registry, err := cfg.Cases(node)
	if err != nil {
		return fmt.Errorf("building the cases: %w", err)
	}

	fixturesDir := o.fixtures
	if fixturesDir == "" {
		dir, err := os.MkdirTemp("", "bee-bench-fixtures-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		fixturesDir = dir
	} else if err := os.MkdirAll(fixturesDir, 0o755); err != nil {
		return &UsageError{Flag: "--fixtures", Msg: err.Error()}
	}
	if dir := filepath.Dir(o.out); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return &UsageError{Flag: "--out", Msg: err.Error()}
		}
	}

	var nonce [8]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		return err
	}
	res := &result.Result{
		Schema:    result.SchemaID,
		Runner:    cfg.Runner,
		Client:    cfg.Client,
		Spec:      result.SpecRef{Hash: pl.SpecHash, Profile: pl.Profile},
		Host:      result.ThisHost(),
		StartedAt: result.Timestamp(time.Now()),
		Cases:     []*result.Case{},
	}
	if node != nil {
		res.Bee = &result.Bee{URL: node.URL, Version: beeVersion(cfg, node)}
	}
	var pace *pacer
	if modes.Pace {
		pace = newPacer(modes.PaceFD)
	}
	fx := pl.Fixtures
	s := &session{
		runner:      cfg.Runner,
		modes:       modes,
		node:        node,
		registry:    registry,
		fixtures:    fixture.New(fx.DataLabel, fx.KeyLabel, fx.DigestLabel),
		chunkBytes:  fx.ChunkPayloadBytes,
		fixturesDir: fixturesDir,
		salts:       fixture.NewSalts(binary.LittleEndian.Uint64(nonce[:])),
		pace:        pace,
		res:         res,
		out:         o.out,
		log:         cfg.Stderr,
	}
	if err := s.runAll(pl.Units); err != nil {
		return fmt.Errorf("writing %s: %w", o.out, err)
	}
	fmt.Fprintf(cfg.Stderr, "wrote %s\n", o.out)
	return nil
}

// shortestTimeout is the smallest unit budget: the node-version check before the first unit
// waits at most half of it.
func shortestTimeout(units []plan.Unit) time.Duration {
	d := 20 * time.Second // no units: the version check's own 10 s bound
	for i, u := range units {
		if i == 0 || u.Timeout() < d {
			d = u.Timeout()
		}
	}
	return d
}

func beeVersion(cfg Config, node *Node) string {
	if cfg.BeeVersion == nil {
		return "unknown"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	v, err := cfg.BeeVersion(ctx, node)
	if err != nil || v == "" {
		fmt.Fprintf(cfg.Stderr, "warning: could not read the Bee version from %s: %v\n", node.URL, err)
		return "unknown"
	}
	return v
}
