// Command netbench measures snapshot bandwidth on a generated world of
// entities that start and stop random walks: it runs the server and a client
// through the seeded link simulator, checks every tick the client decodes
// against the server, and reports the bytes of three formats measured on the
// same traffic in the same run: full snapshots, the byte-aligned bytemask
// delta format, and the project's own bit-packed delta format.
//
//	netbench                       one run, as text
//	netbench -json                 one run, as one JSON object
//	netbench -table                the README's table: five shares moving, and 15% with loss
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"time"
)

func main() {
	var o options
	flag.IntVar(&o.Entities, "entities", 100, "number of entities")
	flag.Float64Var(&o.Hz, "hz", 10, "snapshot rate in Hz")
	flag.Float64Var(&o.Seconds, "seconds", 600, "simulated seconds")
	flag.Float64Var(&o.Moving, "moving", 0.15, "share of entities moving at any time (p)")
	flag.Float64Var(&o.Start, "start", 0, "chance per tick that an idle entity starts walking (a); 0 derives it from -moving with the model's mean walk length")
	flag.Float64Var(&o.Loss, "loss", 0, "packet loss in each direction, 0..1")
	flag.Float64Var(&o.Burst, "burst", 1, "mean burst length of losses in packets; 1 = independent")
	flag.Float64Var(&o.RTTms, "rtt", 200, "round-trip time in milliseconds")
	flag.IntVar(&o.History, "history", 16, "ticks a delta may reach back (A); both sides keep A+1 snapshots")
	flag.Uint64Var(&o.Seed, "seed", 1, "seed of the world and the links")
	headingBits := flag.Uint("heading-bits", 10, "width of the quantized heading (the game's is 10; the reference formats send it in 2 bytes either way)")
	asJSON := flag.Bool("json", false, "print one JSON object")
	table := flag.Bool("table", false, "print the README table (ignores -moving, -loss and -burst)")
	flag.Parse()
	o.HeadingBits = uint8(*headingBits)

	if *table {
		if err := printTable(os.Stdout, o); err != nil {
			fmt.Fprintln(os.Stderr, "netbench:", err)
			os.Exit(1)
		}
		return
	}
	start := time.Now()
	r, err := run(o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "netbench:", err)
		os.Exit(1)
	}
	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			fmt.Fprintln(os.Stderr, "netbench:", err)
			os.Exit(1)
		}
	} else {
		printReport(os.Stdout, o, r, time.Since(start))
	}
	if r.MismatchedTicks != 0 {
		os.Exit(2)
	}
}
