package main

import (
	"errors"
	"strings"
	"testing"
)

// The start-up test's log becomes one column a visit, in the order logged,
// with a dash where a visit has no such phase.
func TestStartupTable(t *testing.T) {
	log := `=== RUN   TestBrowserStartup
    startup_test.go:348: figure start-up, first visit: game.wasm br 2603868 bytes on the wire (13977369 raw)
    startup_test.go:367: figure start-up, first visit: | game.wasm answered (headers) | 73 ms |
    startup_test.go:367: figure start-up, first visit: | first frame with the world shown (next frame) | 1878 ms |
    startup_test.go:370: figure start-up, first visit: longest main-thread tasks: 268 ms
    startup_test.go:367: figure start-up, second visit (cached: 304): | game.wasm answered (headers) | 89 ms |
    startup_test.go:367: figure start-up, drawing nothing (?blank=): | game.wasm answered (headers) | 125 ms |
    startup_test.go:79: figure drawing: first snapshot 813 ms after the channels opened when drawing, 438 ms when drawing nothing
--- PASS: TestBrowserStartup (80.10s)
`
	got, err := startupTable(log, "2026-12-05 19:00 UTC")
	if err != nil {
		t.Fatal(err)
	}
	want := `Measured 2026-12-05 19:00 UTC:

| phase (` + "`window.sightline` field" + `) | first visit | second visit (cached: 304) | drawing nothing (?blank=) |
|---|---:|---:|---:|
| game.wasm answered (headers) | 73 ms | 89 ms | 125 ms |
| first frame with the world shown (next frame) | 1,878 ms | — | — |

Drawing: first snapshot 813 ms after the channels opened when drawing, 438 ms when drawing nothing.`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if _, err := startupTable("--- FAIL: TestBrowserStartup", ""); !errors.Is(err, errParse) {
		t.Errorf("a log without phases: %v", err)
	}
}

// cpupair.sh's pairs and median become the table and its median.
func TestCPUTable(t *testing.T) {
	out := `pair  now  then  ratio  lag-now  lag-then  (server CPU µs per client per tick; 32 clients, 20 s; then = cea71ff;
      lag: the load tester's input_lag_inputs, the inputs a client had sent that its newest snapshot did not show applied)
1  94.6  93.6  1.011  0.300  0.310
2  86.5  90.2  0.959  0.280  0.290
ratio least 0.959  median 0.985  most 1.011
`
	got, err := cpuTable(out, "2026-12-05 19:00 UTC", "abc1234", "cea71ff")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Measured 2026-12-05 19:00 UTC, this tree (abc1234) beside cea71ff:", "| 1 | 94.6 | 93.6 | 1.011 | 0.300 | 0.310 |",
		"| 2 | 86.5 | 90.2 | 0.959 | 0.280 | 0.290 |", "Median of the 2 ratios: **0.985** (least 0.959, most 1.011)."} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
	if _, err := cpuTable("bad run: {}", "", "", ""); !errors.Is(err, errParse) {
		t.Errorf("a failed run: %v", err)
	}
}

// The relay benchmark's runs become the round trips and the relay's share.
func TestRelayFigure(t *testing.T) {
	out := `goos: linux
BenchmarkRoundTrip/direct-2         	    5000	     11012 ns/op
BenchmarkRoundTrip/direct-2         	    5000	     10950 ns/op
BenchmarkRoundTrip/direct-2         	    5000	     11300 ns/op
BenchmarkRoundTrip/relayed-2        	    5000	     34812 ns/op
BenchmarkRoundTrip/relayed-2        	    5000	     36800 ns/op
BenchmarkRoundTrip/relayed-2        	    5000	     35500 ns/op
PASS
`
	got, err := relayFigure(out, "2026-12-05 19:00 UTC")
	if err != nil {
		t.Fatal(err)
	}
	want := "Measured 2026-12-05 19:00 UTC: straight 11.0, 10.9, 11.3 µs, through an allocation 34.8, 36.8, 35.5 µs (3 runs each): the relay adds about 24 µs to a round trip (medians)."
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// duels.sh's JSON lines become the table; a duel that failed fails it.
func TestDuelTable(t *testing.T) {
	out := `{"case":"0ms","server":"","loadtest":"","result":{"shots":242,"hits":127,"hit_rate":0.525,"agreement":0.995,"view_lag_ms_mean":43,"view_lag_ms_p95":53,"rejected_shots":0,"corrections_per_min":0,"remote_jumps_per_min":0,"input_delay_ms_p50":34,"verified_ticks":3600,"mismatched_ticks":0}}
`
	got, err := duelTable(out, "2026-12-05 19:00 UTC", 60)
	if err != nil {
		t.Fatal(err)
	}
	if want := "| `0ms` | 242 | 0.525 | **0.995** | 43 / 53 ms | 0 | 0.00 | 0.00 | 34 ms | 0 of 3600 |"; !strings.Contains(got, want) {
		t.Errorf("no %q in\n%s", want, got)
	}
	if _, err := duelTable(`{"case":"10ms","result":null}`, "", 60); err == nil {
		t.Error("a duel without a result passed")
	}
}

// TestInternet's figure lines become one row a phase; a phase without the
// relay leaves its columns empty.
func TestInternetTable(t *testing.T) {
	log := `    internet_test.go:198: figure cloud with -public-ip: path [host], connect p50 611 ms, 540 B/s of snapshots per client
        internet_test.go:276: figure symmetric NAT to home, relayed: path map[relay-udp:2], connect p50 2027 ms, 610 B/s of snapshots per client; relay: 185420 bytes (9271 B/s per player), CPU 130ms (0.65% of a core per player)
`
	got, err := internetTable(log, "2026-12-05 19:00 UTC")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| cloud with -public-ip | `host` | 611 ms | 540 B/s |  |  |",
		"| symmetric NAT to home, relayed | `relay-udp:2` | 2,027 ms | 610 B/s | 9,271 B/s | 0.65 % of a core |"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
}
