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
	"strings"
	"time"

	"github.com/ethswarm-tools/bee-bench/runners/go/harness/count/seed"
	"github.com/ethswarm-tools/bee-bench/runners/go/harness/fixture"
	"github.com/ethswarm-tools/bee-bench/runners/go/harness/result"
	"github.com/ethswarm-tools/bee-bench/runners/go/harness/spec"
)

// Exit codes of the runner contract.
const (
	ExitOK     = 0 // the result file is written
	ExitBroken = 1 // the harness itself broke
	ExitUsage  = 2 // bad arguments or a bad spec
)

// Config is what the runner's main package supplies.
type Config struct {
	Runner string        // "go"
	Client result.Client // the client library, as built
	// Cases builds the dispatch table; node is nil when no Bee node is given.
	Cases func(node *Node) (Registry, error)
	// BeeVersion asks the node for its version (result bee.version).
	BeeVersion func(ctx context.Context, node *Node) (string, error)

	Stdout, Stderr io.Writer           // default os.Stdout, os.Stderr
	Getenv         func(string) string // default os.Getenv
}

const usage = `usage:
  %[1]s run --spec FILE [--case GLOB]... [--profile quick|full] [--large]
         [--fixtures DIR] [--bee-url URL --batch-id HEX] --out FILE
  %[1]s info
`

// Main runs the command line (without the program name) and returns the exit code.
func Main(args []string, cfg Config) int {
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
	case "run":
		err := run(args[1:], cfg, prog)
		var ue *spec.UsageError
		var se *spec.Error
		switch {
		case err == nil:
			return ExitOK
		case errors.Is(err, flag.ErrHelp):
			return ExitUsage
		case errors.As(err, &ue), errors.As(err, &se):
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
	specPath, profile, fixtures, beeURL, batchID, out string
	cases                                             multi
	large                                             bool
}

type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(v string) error { *m = append(*m, v); return nil }

var hex64 = regexp.MustCompile(`^[0-9a-fA-F]{64}$`)

func parseRun(args []string, stderr io.Writer, prog string) (*options, error) {
	var o options
	fs := flag.NewFlagSet(prog+" run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintf(stderr, usage, prog) }
	fs.StringVar(&o.specPath, "spec", "", "the case spec (spec/bench-spec.json)")
	fs.Var(&o.cases, "case", "select cases by glob (* any run, ? one char); repeatable")
	fs.StringVar(&o.profile, "profile", "quick", "quick or full")
	fs.BoolVar(&o.large, "large", false, `also run params marked "large": true`)
	fs.StringVar(&o.fixtures, "fixtures", "", "folder for on-disk fixtures (default: a temporary folder)")
	fs.StringVar(&o.beeURL, "bee-url", "", "Bee API URL for net.* cases")
	fs.StringVar(&o.batchID, "batch-id", "", "postage batch id (64 hex) for net.* cases")
	fs.StringVar(&o.out, "out", "", "the result file to write")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, &spec.UsageError{Flag: "arguments", Msg: err.Error()}
	}
	if fs.NArg() > 0 {
		return nil, &spec.UsageError{Flag: "arguments", Msg: fmt.Sprintf("unexpected %q", fs.Arg(0))}
	}
	if o.specPath == "" {
		return nil, &spec.UsageError{Flag: "--spec", Msg: "required"}
	}
	if o.out == "" {
		return nil, &spec.UsageError{Flag: "--out", Msg: "required"}
	}
	if o.profile != "quick" && o.profile != "full" {
		return nil, &spec.UsageError{Flag: "--profile", Msg: fmt.Sprintf("must be quick or full, got %q", o.profile)}
	}
	if (o.beeURL == "") != (o.batchID == "") {
		return nil, &spec.UsageError{Flag: "--bee-url/--batch-id", Msg: "give both or neither"}
	}
	if o.beeURL != "" {
		u, err := url.Parse(o.beeURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, &spec.UsageError{Flag: "--bee-url", Msg: fmt.Sprintf("want an http(s) URL, got %q", o.beeURL)}
		}
		if !hex64.MatchString(strings.TrimPrefix(o.batchID, "0x")) {
			return nil, &spec.UsageError{Flag: "--batch-id", Msg: "want 64 hex digits"}
		}
	}
	return &o, nil
}

func run(args []string, cfg Config, prog string) error {
	o, err := parseRun(args, cfg.Stderr, prog)
	if err != nil {
		return err
	}
	hooks, err := ParseHooks(cfg.Getenv)
	if err != nil {
		return err
	}
	if hooks.Count && !seed.Fixed() {
		fmt.Fprintf(cfg.Stderr, "warning: counting in a build without cgo, so Go's hash key differs between processes and map-heavy counts move by up to 0.4%% (fix: build with CGO_ENABLED=1 and a C compiler)\n")
	}
	sp, err := spec.Load(o.specPath)
	if err != nil {
		var se *spec.Error
		if errors.As(err, &se) {
			return err
		}
		return &spec.UsageError{Flag: "--spec", Msg: err.Error()}
	}
	cases, err := sp.Select(o.cases)
	if err != nil {
		return err
	}

	var node *Node
	if o.beeURL != "" {
		node = &Node{
			URL:         strings.TrimRight(o.beeURL, "/"),
			BatchID:     strings.ToLower(strings.TrimPrefix(o.batchID, "0x")),
			CallTimeout: caseTimeout(hooks, sp, o.profile) / 2,
		}
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
		return &spec.UsageError{Flag: "--fixtures", Msg: err.Error()}
	}
	if dir := filepath.Dir(o.out); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return &spec.UsageError{Flag: "--out", Msg: err.Error()}
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
		Spec:      result.SpecRef{Hash: sp.Hash, Profile: o.profile},
		Host:      result.ThisHost(),
		StartedAt: result.Timestamp(time.Now()),
		Cases:     []*result.Case{},
	}
	if node != nil {
		res.Bee = &result.Bee{URL: node.URL, Version: beeVersion(cfg, node)}
	}
	var pace *pacer
	if hooks.Pace {
		pace = newPacer(hooks.PaceFD)
	}
	s := &session{
		runner:      cfg.Runner,
		spec:        sp,
		profile:     o.profile,
		hooks:       hooks,
		node:        node,
		registry:    registry,
		fixtures:    fixture.New(sp.Fixtures.DataLabel, sp.Fixtures.KeyLabel, sp.Fixtures.DigestLabel),
		fixturesDir: fixturesDir,
		salts:       fixture.NewSalts(binary.LittleEndian.Uint64(nonce[:])),
		pace:        pace,
		res:         res,
		out:         o.out,
		log:         cfg.Stderr,
	}
	if err := s.runAll(s.units(cases, o.large)); err != nil {
		return fmt.Errorf("writing %s: %w", o.out, err)
	}
	fmt.Fprintf(cfg.Stderr, "wrote %s\n", o.out)
	return nil
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
