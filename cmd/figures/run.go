package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sightline-game/sightline/internal/figures"
)

// Config is what Run measures and where it writes.
type Config struct {
	// Groups are the groups of figures to measure (see allGroups).
	Groups []string
	// TestTime adds the "test" group: `make test`'s wall time.
	TestTime bool
	// Out is the figures file, relative to Root.
	Out string
	// Root is the module's root; empty finds it above the working directory.
	Root string
	// Go is the go tool that builds and runs everything measured.
	Go string
	// CPUBase is the revision the server's CPU per player is measured
	// beside, and CPUPairs how many alternating pairs.
	CPUBase  string
	CPUPairs int
	// DuelSeconds is each duel's counted play.
	DuelSeconds int
	// NoRewrite leaves the quotes in the other Markdown files alone.
	NoRewrite bool
	// Log receives progress: each command as it starts and its stderr.
	Log io.Writer
}

// allGroups are the groups of figures, in the order of the file.
var allGroups = []string{"bytes", "seeded", "wasm", "startup", "cpu", "duels", "relay", "internet", "test"}

// order is the figures' order in the file.
var order = slices.Concat(
	[]string{figures.BandwidthModel, figures.BandwidthArena},
	heldNames(),
	[]string{figures.WasmSizes, figures.WasmSizesLine, "wasm-code", "startup", "cpu-pair", "duels", "relay-roundtrip", "relay-internet", "test-time"},
)

// DefaultConfig measures every group but the test time.
func DefaultConfig() Config {
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goTool); err != nil {
		goTool = "go"
	}
	return Config{
		Groups:      []string{"bytes", "seeded", "wasm", "startup", "cpu", "duels", "relay", "internet"},
		Out:         figures.Path,
		Go:          goTool,
		CPUBase:     "cea71ff", // the tree before the per-player cost work
		CPUPairs:    3,
		DuelSeconds: 60,
		Log:         os.Stderr,
	}
}

// env is what a measurement needs: the config, the module's root and the
// machine it runs on.
type env struct {
	Config
	root string
	// load is the machine's load note at the start of the figure being
	// measured (see loadNote).
	load string
}

// measurer measures one group's figures.
type measurer func(e *env) ([]figures.Figure, error)

var measurers = map[string]measurer{
	"bytes":    measureBytes,
	"seeded":   measureSeeded,
	"wasm":     measureWasm,
	"startup":  measureStartup,
	"cpu":      measureCPU,
	"duels":    measureDuels,
	"relay":    measureRelay,
	"internet": measureInternet,
	"test":     measureTestTime,
}

// Run measures the configured groups, merges them into the figures file
// (keeping the figures of other groups), writes it and rewrites the quotes
// of the fresh figures in every other Markdown file of the module.
func Run(cfg Config) error {
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	groups := slices.Clone(cfg.Groups)
	if cfg.TestTime && !slices.Contains(groups, "test") {
		groups = append(groups, "test")
	}
	for _, g := range groups {
		if measurers[g] == nil {
			return fmt.Errorf("unknown group %q (groups: %s)", g, strings.Join(allGroups, ", "))
		}
	}
	root := cfg.Root
	if root == "" {
		wd, err := os.Getwd()
		if err != nil {
			return err
		}
		if root, err = figures.ModuleRoot(wd); err != nil {
			return err
		}
	}
	e := &env{Config: cfg, root: root}
	outPath := filepath.Join(root, cfg.Out)
	var old []figures.Figure
	if b, err := os.ReadFile(outPath); err == nil {
		if old, err = figures.Parse(string(b)); err != nil {
			return fmt.Errorf("%s: %w", cfg.Out, err)
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	// The file is written after each group, so that a later group (the
	// start-up test compares the build's sizes with it) sees the fresh
	// figures, and an interrupted run keeps what it measured.
	all := old
	fresh := map[string]figures.Figure{}
	var errs []error
	for _, g := range groups {
		fmt.Fprintf(cfg.Log, "== %s\n", g)
		figs, err := measurers[g](e)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", g, err))
			continue
		}
		all = figures.Merge(all, figs, order)
		for _, f := range figs {
			fresh[f.Name] = f
		}
		if err := os.MkdirAll(filepath.Dir(outPath), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(outPath, []byte(figures.Format(all)), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(cfg.Log, "wrote %s: %d figures, %d measured now\n", cfg.Out, len(all), len(fresh))
	}
	if len(fresh) > 0 && !cfg.NoRewrite {
		if err := rewriteDocs(root, fresh, cfg.Log); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// rewriteDocs replaces the quotes of the fresh figures in every Markdown
// file under root.
func rewriteDocs(root string, fresh map[string]figures.Figure, log io.Writer) error {
	docs, err := figures.Documents(root)
	if err != nil {
		return err
	}
	var errs []error
	for _, rel := range docs {
		path := filepath.Join(root, rel)
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		s, changed, err := figures.Rewrite(string(b), fresh)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", rel, err))
			continue
		}
		if changed {
			if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
				return err
			}
			fmt.Fprintf(log, "rewrote the figures quoted in %s\n", rel)
		}
	}
	return errors.Join(errs...)
}

// figure starts a figure measured now on this machine.
func (e *env) figure(name, title, command string) figures.Figure {
	e.load = e.readLoad()
	return figures.Figure{
		Name:     name,
		Title:    title,
		Command:  "`" + command + "`",
		Measured: time.Now().UTC().Format("2006-01-02 15:04 UTC"),
		Machine:  e.machine(),
	}
}

// run runs a command in the module's root with extra environment, its
// stderr copied to the log, and returns its stdout.
func (e *env) run(extraEnv []string, name string, args ...string) (string, error) {
	fmt.Fprintf(e.Log, "$ %s %s\n", name, strings.Join(args, " "))
	cmd := exec.Command(name, args...)
	cmd.Dir = e.root
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(e.goPath())+string(os.PathListSeparator)+os.Getenv("PATH"))
	cmd.Env = append(cmd.Env, extraEnv...)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = e.Log
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("%s %s: %w\n%s", name, strings.Join(args, " "), err, tail(out.String(), 40))
	}
	return out.String(), nil
}

// goPath is the go tool's path, for the scripts that call `go`.
func (e *env) goPath() string {
	if p, err := exec.LookPath(e.Go); err == nil {
		if abs, err := filepath.Abs(p); err == nil {
			return abs
		}
		return p
	}
	return e.Go
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// machine describes this machine now: CPU model, cores, the go tool's
// version, the kernel, and the load average (with a word when the machine
// was busy with other work).
func (e *env) machine() string {
	model := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
	}
	goVersion := e.goVersion()
	kernel := runtime.GOOS
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		kernel = "Linux " + strings.TrimSpace(string(b))
	}
	s := fmt.Sprintf("%s, %d cores, %s, %s", model, runtime.NumCPU(), goVersion, kernel)
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		if f := strings.Fields(string(b)); len(f) >= 3 {
			s += fmt.Sprintf(", load average %s %s %s at the start", f[0], f[1], f[2])
			if l, err := strconv.ParseFloat(f[0], 64); err == nil && l > 0.5*float64(runtime.NumCPU()) {
				s += " (the machine was busy with other work)"
			}
		}
	}
	return s
}

// loadNote is what a measurement's content says of the machine's load
// at its start when it was busy with other work (the load average over a
// minute above half its cores), since a document quotes the content and
// not the machine line: ", load average 4.58 on 2 cores"; empty otherwise.
func (e *env) loadNote() string { return e.load }

func (e *env) readLoad() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return ""
	}
	if l, err := strconv.ParseFloat(f[0], 64); err != nil || l <= 0.5*float64(runtime.NumCPU()) {
		return ""
	}
	return fmt.Sprintf(", load average %s on %d cores", f[0], runtime.NumCPU())
}

// goVersion is the go tool's version, as `go env GOVERSION` prints it.
func (e *env) goVersion() string {
	out, err := exec.Command(e.goPath(), "env", "GOVERSION").Output()
	if err != nil {
		return runtime.Version()
	}
	return strings.TrimSpace(string(out))
}
