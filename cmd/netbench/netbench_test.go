package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The command, built without the race detector once for all the tests
// that run it, in a directory TestMain removes.
var (
	netbenchOnce sync.Once
	netbenchDir  string
	netbenchExe  string
	netbenchErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if netbenchDir != "" {
		os.RemoveAll(netbenchDir)
	}
	os.Exit(code)
}

// netbenchBinary builds the command the first time it is called and
// returns its path.
func netbenchBinary(t *testing.T) string {
	t.Helper()
	netbenchOnce.Do(func() {
		if netbenchDir, netbenchErr = os.MkdirTemp("", "netbench-test-"); netbenchErr != nil {
			return
		}
		netbenchExe = filepath.Join(netbenchDir, "netbench")
		if out, err := exec.Command("go", "build", "-o", netbenchExe, ".").CombinedOutput(); err != nil {
			netbenchErr = fmt.Errorf("build: %v\n%s", err, out)
		}
	})
	if netbenchErr != nil {
		t.Fatal(netbenchErr)
	}
	return netbenchExe
}

func defaults() options {
	return options{Entities: 100, Hz: 10, Seconds: 600, Moving: 0.15, Burst: 1, RTTms: 200, History: 16, Seed: 1}
}

// The traffic model is faithful (the byte-aligned format lands near the
// document's figures) and the project's format sends at most 0.7x its bytes,
// with every decoded tick checked.
func TestFiguresAgainstTheDocument(t *testing.T) {
	cases := []struct {
		moving, loss, burst float64
		document            float64 // bytemask B/s in the reference document; 0 = none given
	}{
		{0.05, 0, 1, 582}, {0.15, 0, 1, 1312}, {0.30, 0, 1, 2398}, {0.60, 0, 1, 4589}, {1, 0, 1, 6223},
		{0.15, 0.10, 4, 0},
	}
	for _, c := range cases {
		o := defaults()
		o.Moving, o.Loss, o.Burst = c.moving, c.loss, c.burst
		r, err := run(o)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%3.0f%% moving, %2.0f%% loss: full %5.0f, bytemask %5.0f (document %4.0f), ours %5.0f B/s = %.2fx; decoded %d, mismatched %d",
			c.moving*100, c.loss*100, r.FullBps, r.BytemaskBps, c.document, r.Bps, r.Ratio, r.DecodedTicks, r.MismatchedTicks)
		if r.MismatchedTicks != 0 {
			t.Errorf("%.0f%% moving: %d mismatched ticks", c.moving*100, r.MismatchedTicks)
		}
		if r.DecodedTicks < r.Ticks*3/4 {
			t.Errorf("%.0f%% moving: decoded only %d of %d", c.moving*100, r.DecodedTicks, r.Ticks)
		}
		if c.document > 0 && (r.BytemaskBps < 0.8*c.document || r.BytemaskBps > 1.2*c.document) {
			t.Errorf("%.0f%% moving: bytemask %.0f B/s is not within 20%% of the document's %.0f", c.moving*100, r.BytemaskBps, c.document)
		}
		if r.Ratio > 0.7 {
			t.Errorf("%.0f%% moving: ours is %.2fx bytemask, want at most 0.7", c.moving*100, r.Ratio)
		}
		if c.loss > 0 && r.DownLost == 0 {
			t.Errorf("loss %.0f%% lost nothing", c.loss*100)
		}
	}
}

// The command runs with the flags and prints the JSON keys it
// promises, for both traffics.
func TestCommandPrintsJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	exe := netbenchBinary(t)
	common := []string{"ticks", "decoded_ticks", "mismatched_ticks", "full_Bps", "bytemask_Bps", "Bps", "ratio_to_bytemask", "mean_baseline_age", "full_fallbacks"}
	cases := []struct {
		name  string
		args  []string
		keys  []string
		check func(t *testing.T, got map[string]any)
	}{
		{"model", []string{"-entities", "100", "-hz", "10", "-seconds", "60", "-moving", "0.15", "-start", "0.05", "-speed", "48",
			"-loss", "0.1", "-burst", "3", "-rtt", "200", "-history", "16", "-seed", "2", "-json"}, nil,
			func(t *testing.T, got map[string]any) {
				if got["ticks"].(float64) != 600 || got["start"].(float64) != 0.05 {
					t.Errorf("ticks %v start %v", got["ticks"], got["start"])
				}
				if age := got["mean_baseline_age"].(float64); age < 2 {
					t.Errorf("mean baseline age %v with 200 ms RTT at 10 Hz and loss; want at least 2", age)
				}
			}},
		{"arena", []string{"-traffic", "arena", "-players", "6", "-creatures", "200", "-seconds", "3", "-loss", "0.1", "-burst", "4", "-seed", "3", "-json"},
			[]string{"zstd_full_Bps", "differing_views", "default_budget", "view", "game", "match"},
			func(t *testing.T, got map[string]any) {
				if got["ticks"].(float64) != 90 || got["players"].(float64) != 6 || got["creatures"].(float64) != 200 || got["history"].(float64) != 32 {
					t.Errorf("ticks %v players %v creatures %v history %v", got["ticks"], got["players"], got["creatures"], got["history"])
				}
				b, ok := got["default_budget"].(map[string]any)
				if !ok {
					t.Fatalf("default_budget is %T, want an object", got["default_budget"])
				}
				for _, k := range []string{"rate_Bps", "Bps", "deferred_entity_ticks_per_s", "mismatched_ticks", "decoded_ticks"} {
					if _, ok := b[k]; !ok {
						t.Errorf("default_budget lacks %q", k)
					}
				}
				if b["rate_Bps"].(float64) != 8000 || b["mismatched_ticks"].(float64) != 0 || b["decoded_ticks"].(float64) == 0 {
					t.Errorf("default_budget: %v", b)
				}
				if got["zstd_full_Bps"].(float64) <= 0 {
					t.Errorf("zstd_full_Bps %v", got["zstd_full_Bps"])
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(exe, c.args...)
			var stdout bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, os.Stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("run: %v", err)
			}
			var got map[string]any
			if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
				t.Fatalf("not one JSON object: %v\n%s", err, stdout.String())
			}
			for _, k := range append(common, c.keys...) {
				if _, ok := got[k]; !ok {
					t.Errorf("key %q missing from %s", k, strings.TrimSpace(stdout.String()))
				}
			}
			if got["mismatched_ticks"].(float64) != 0 {
				t.Errorf("mismatched ticks %v", got["mismatched_ticks"])
			}
			c.check(t, got)
		})
	}
}

// Flags of one traffic are refused with the other, and the arena runs at
// the game's tick rate only.
func TestParseRefusesFlagsOfTheOtherTraffic(t *testing.T) {
	cases := [][]string{
		{"-traffic", "arena", "-speed", "220"},
		{"-traffic", "arena", "-entities", "10"},
		{"-traffic", "arena", "-hz", "10"},
		{"-players", "3"},
		{"-traffic", "model", "-creatures", "3"},
		{"-traffic", "walkers"},
		{"-json", "extra"},
	}
	for _, args := range cases {
		if _, err := parse(args, io.Discard); !errors.Is(err, errFlags) {
			t.Errorf("%q: %v, want %v", args, err, errFlags)
		}
	}
}

// Each traffic takes its own defaults from the flags left unset.
func TestParseDefaults(t *testing.T) {
	cases := []struct {
		args             []string
		seconds, hz      float64
		history, players int
	}{
		{nil, 600, 10, 16, 32},
		{[]string{"-traffic", "arena"}, 120, 10, 0, 32},
		{[]string{"-traffic", "arena", "-hz", "30", "-seconds", "5", "-history", "8", "-players", "3"}, 5, 30, 8, 3},
		{[]string{"-speed", "220", "-hz", "30"}, 600, 30, 16, 32},
	}
	for _, c := range cases {
		got, err := parse(c.args, io.Discard)
		if err != nil {
			t.Fatalf("%q: %v", c.args, err)
		}
		if o := got.o; o.Seconds != c.seconds || o.Hz != c.hz || o.History != c.history || o.Players != c.players {
			t.Errorf("%q: seconds %g hz %g history %d players %d; want %g, %g, %d, %d", c.args, o.Seconds, o.Hz, o.History, o.Players, c.seconds, c.hz, c.history, c.players)
		}
	}
}

// The table runs each row's command and prints it beside its figures.
func TestRowsPrintTheirCommands(t *testing.T) {
	rows := [][]string{
		{"-traffic", "arena", "-players", "4", "-seconds", "2", "-loss", "0.1", "-burst", "4"},
		{"-speed", "220", "-hz", "30", "-seconds", "20"},
	}
	var out bytes.Buffer
	if err := printRows(&out, rows); err != nil {
		t.Fatal(err)
	}
	// The table, a blank line, where the arena row's bits go, a blank
	// line, and its changes by context and its new entities.
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if want := 2 + len(rows) + 2*(1+3); len(lines) != want {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), want, out.String())
	}
	for _, at := range []int{len(lines) - 5, len(lines) - 1} {
		if bits := lines[at]; !strings.HasPrefix(bits, "| arena, 4 players, 10%, bursts of 4 | ") || strings.Count(bits, "|") != strings.Count(lines[at-2], "|") {
			t.Errorf("where the arena row's bits go: %s", bits)
		}
	}
	for i, want := range []string{
		"| arena, 4 players, 300 creatures, 2 s | 10%, bursts of 4 |",
		"| model, 220 px/s at 30 Hz, 15% moving, 20 s | none | 100 |",
	} {
		line := lines[2+i]
		if !strings.HasPrefix(line, want) || !strings.HasSuffix(line, "`go run ./cmd/netbench "+strings.Join(rows[i], " ")+"` |") {
			t.Errorf("row %d: %s\nwant it to start %q and end with its command", i, line, want)
		}
		if n := strings.Count(line, "|"); n != strings.Count(lines[0], "|") {
			t.Errorf("row %d has %d cells' borders, the header %d", i, n, strings.Count(lines[0], "|"))
		}
	}
}
