// Command netbench measures snapshot bandwidth: it runs a server and its
// clients through the seeded link simulator, checks every tick a client
// decodes against what the server sent it, and reports the bytes of the
// formats measured on the same traffic in the same run: full snapshots, the
// byte-aligned bytemask delta format, and the project's own bit-packed
// delta format.
//
// Two traffics:
//
//   - model (the default): a generated world of entities that start and
//     stop random walks (netcode/traffic), all of it sent to one client.
//
//   - arena: the game itself. The arena's rules (game/arena) run with bots
//     (game/bots/brain) playing every player; each client's stream is its
//     own view, chosen as the match server chooses it (interest area,
//     priorities, netcode/view). Besides the three formats it reports full
//     snapshots each compressed alone with zstd, and a second line under
//     the game's default budget.
//
//     netbench                                   the model, as text
//     netbench -json                             the model, as one JSON object
//     netbench -table                            the model's table (docs/01)
//     netbench -speed 220 -hz 30                 the model at the game's speed and rate
//     netbench -traffic arena -seconds 120       the arena with 32 bots and 300 creatures
//     netbench -traffic arena -loss 0.1 -burst 4 -json
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"
)

func main() {
	c, err := parse(os.Args[1:], os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err == nil {
		err = execute(os.Stdout, c)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "netbench:", err)
		if errors.Is(err, errMismatched) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// command is a parsed command line: the options, which flags were set, and
// what to print.
type command struct {
	o           options
	set         map[string]bool
	table, json bool
}

// parse parses the command's flags; usage and flag errors go to errOut.
func parse(args []string, errOut io.Writer) (command, error) {
	var c command
	o := &c.o
	fs := flag.NewFlagSet("netbench", flag.ContinueOnError)
	fs.SetOutput(errOut)
	fs.StringVar(&o.Traffic, "traffic", "model", "what the server sends: model (generated walkers, one client) or arena (the game with bots, one stream per player)")
	fs.IntVar(&o.Entities, "entities", 100, "model: number of entities")
	fs.Float64Var(&o.Hz, "hz", 10, "model: snapshot rate in Hz (the arena runs at the game's 30)")
	fs.Float64Var(&o.Seconds, "seconds", 600, "simulated seconds (arena: 120 unless set)")
	fs.Float64Var(&o.Moving, "moving", 0.15, "model: share of entities moving at any time (p)")
	fs.Float64Var(&o.Start, "start", 0, "model: chance per tick that an idle entity starts walking (a); 0 derives it from -moving with the model's mean walk length")
	fs.Float64Var(&o.Speed, "speed", 48, "model: walking speed in px/s (the game's players run 220, its creatures walk 60)")
	fs.IntVar(&o.Players, "players", 32, "arena: players, each played by a bot, each a client")
	fs.IntVar(&o.Creatures, "creatures", 300, "arena: creatures")
	fs.Float64Var(&o.Loss, "loss", 0, "packet loss in each direction, 0..1")
	fs.Float64Var(&o.Burst, "burst", 1, "mean burst length of losses in packets; 1 = independent")
	fs.Float64Var(&o.RTTms, "rtt", 200, "round-trip time in milliseconds")
	fs.IntVar(&o.History, "history", 16, "ticks a delta may reach back (A); both sides keep A+1 snapshots (arena: the game's 32 unless set)")
	fs.Uint64Var(&o.Seed, "seed", 1, "seed of the world and the links")
	fs.BoolVar(&o.Replay, "replay", false, "arena: also write the match as a replay (cmd/server -record's format) and report its bytes a minute beside what the players were sent")
	fs.StringVar(&o.Record, "record", "", "arena: write the match as a replay file (implies -replay; cmd/game -replay FILE plays it)")
	headingBits := fs.Uint("heading-bits", 10, "model: width of the quantized heading (the game's is 10; the reference formats send it in 2 bytes either way)")
	fs.BoolVar(&c.json, "json", false, "print one JSON object")
	fs.BoolVar(&c.table, "table", false, "print the table of the traffic that docs/01-snapshots-and-deltas.md quotes (model: ignores -moving, -loss and -burst; arena: runs its rows' own commands)")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("%w: unexpected %q", errFlags, fs.Arg(0))
	}
	o.HeadingBits = uint8(*headingBits)
	c.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { c.set[f.Name] = true })
	switch o.Traffic {
	case "model":
		return c, onlyFor(c.set, "model", "players", "creatures", "replay", "record")
	case "arena":
		if err := onlyFor(c.set, "arena", "entities", "moving", "start", "speed", "heading-bits"); err != nil {
			return c, err
		}
		if c.set["hz"] && o.Hz != 30 {
			return c, fmt.Errorf("%w: the arena runs at the game's 30 Hz, not -hz %g", errFlags, o.Hz)
		}
		if !c.set["seconds"] {
			o.Seconds = 120
		}
		if !c.set["history"] {
			o.History = 0 // the game's
		}
		return c, nil
	}
	return c, fmt.Errorf("%w: -traffic %q, want model or arena", errFlags, o.Traffic)
}

// onlyFor refuses flags that were set but do not apply to traffic.
func onlyFor(set map[string]bool, traffic string, names ...string) error {
	for _, n := range names {
		if set[n] {
			return fmt.Errorf("%w: -%s does not apply to -traffic %s", errFlags, n, traffic)
		}
	}
	return nil
}

// execute runs a parsed command and prints what it asks for.
func execute(w io.Writer, c command) error {
	if c.o.Traffic == "arena" {
		if c.table {
			return printArenaTable(w)
		}
		start := time.Now()
		r, err := runArena(c.o)
		if err != nil {
			return err
		}
		if err := emit(w, r, c.json, func() { printArenaReport(w, r, time.Since(start)) }); err != nil {
			return err
		}
		return mismatch(r.MismatchedTicks)
	}
	if c.table {
		return printTable(w, c.o)
	}
	start := time.Now()
	r, err := run(c.o)
	if err != nil {
		return err
	}
	if err := emit(w, r, c.json, func() { printReport(w, c.o, r, time.Since(start)) }); err != nil {
		return err
	}
	return mismatch(r.MismatchedTicks)
}

// mismatch returns errMismatched if any decoded tick differed from the server's.
func mismatch(n int) error {
	if n != 0 {
		return fmt.Errorf("%w: %d ticks", errMismatched, n)
	}
	return nil
}

// emit prints r as one JSON object, or as text.
func emit(w io.Writer, r any, asJSON bool, text func()) error {
	if !asJSON {
		text()
		return nil
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
