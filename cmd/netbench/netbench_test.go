package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
)

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
	exe := t.TempDir() + "/netbench"
	if out, err := exec.Command("go", "build", "-o", exe, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
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
func TestCommandRefusesFlagsOfTheOtherTraffic(t *testing.T) {
	cases := []struct {
		traffic string
		set     map[string]bool
		o       options
	}{
		{"arena", map[string]bool{"speed": true}, options{}},
		{"arena", map[string]bool{"entities": true}, options{}},
		{"arena", map[string]bool{"hz": true}, options{Hz: 10}},
		{"model", map[string]bool{"players": true}, options{}},
		{"model", map[string]bool{"creatures": true}, options{}},
	}
	for _, c := range cases {
		var err error
		if c.traffic == "arena" {
			err = runArenaCommand(io.Discard, c.o, c.set, false, false)
		} else {
			err = runModel(io.Discard, c.o, c.set, false, false)
		}
		if !errors.Is(err, errFlags) {
			t.Errorf("-traffic %s with %v: %v, want %v", c.traffic, c.set, err, errFlags)
		}
	}
}
