// Command figures measures every figure the documentation quotes and writes
// them into docs/figures.md (internal/figures says how), then rewrites each
// quote of a figure it measured in the repository's Markdown files: `make
// figures` runs it.
//
//	figures [-figures bytes,seeded,wasm,startup,cpu,duels,relay,internet] [-test-time] [-out docs/figures.md]
//
// -figures picks groups of figures (default all but the test time, which
// takes the whole of `make test`); the figures of the groups not picked
// keep what the file held. Groups:
//
//	bytes    bandwidth-model, bandwidth-arena: cmd/netbench's tables (exact)
//	seeded   the figures seeded tests hold (figuretest.Hold; exact): seeded.go lists them
//	wasm     wasm-sizes, wasm-sizes-line: game.wasm as `make web` builds it (exact)
//	startup  startup: the browser's start-up phases (TestBrowserStartup, TestBrowserOnALANAddress)
//	cpu      cpu-pair: the server's CPU per player beside -cpu-base (scripts/cpupair.sh)
//	duels    duels: hit rates and agreement over WebRTC (scripts/duels.sh)
//	relay    relay-roundtrip: a datagram's round trip straight and through the relay
//	internet relay-internet: what a relayed player costs the relay (TestInternet; root)
//	test     test-time: the wall time of `make test`
//
// A group that fails is reported and the others are still written; the
// command then exits 1.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
)

func main() {
	cfg, err := parseFlags(os.Args[1:])
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err == nil {
		err = Run(cfg)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "figures:", err)
		os.Exit(1)
	}
}

func parseFlags(args []string) (Config, error) {
	cfg := DefaultConfig()
	fs := flag.NewFlagSet("figures", flag.ContinueOnError)
	groups := fs.String("figures", strings.Join(cfg.Groups, ","), "the groups of figures to measure, comma-separated: "+strings.Join(allGroups, ", "))
	fs.BoolVar(&cfg.TestTime, "test-time", cfg.TestTime, "also measure `make test`'s wall time (about 10 minutes)")
	fs.StringVar(&cfg.Out, "out", cfg.Out, "the figures file to write, relative to the module's root")
	fs.StringVar(&cfg.Root, "root", cfg.Root, "the module's root (default: found above the working directory)")
	fs.StringVar(&cfg.Go, "go", cfg.Go, "the go tool")
	fs.StringVar(&cfg.CPUBase, "cpu-base", cfg.CPUBase, "the revision the server's CPU is measured beside")
	fs.IntVar(&cfg.CPUPairs, "cpu-pairs", cfg.CPUPairs, "pairs of the CPU measurement")
	fs.IntVar(&cfg.DuelSeconds, "duel-seconds", cfg.DuelSeconds, "counted seconds of each duel")
	fs.BoolVar(&cfg.NoRewrite, "no-rewrite", cfg.NoRewrite, "write the figures file only, not the quotes in the other Markdown files")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	cfg.Groups = nil
	for _, g := range strings.Split(*groups, ",") {
		if g = strings.TrimSpace(g); g != "" {
			cfg.Groups = append(cfg.Groups, g)
		}
	}
	return cfg, nil
}
