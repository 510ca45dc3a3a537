package main

import (
	"bytes"
	"encoding/json"
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

// The command runs with the flags and prints the JSON keys it promises.
func TestCommandPrintsJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	exe := t.TempDir() + "/netbench"
	if out, err := exec.Command("go", "build", "-o", exe, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	cmd := exec.Command(exe, "-entities", "100", "-hz", "10", "-seconds", "60", "-moving", "0.15", "-start", "0.05",
		"-loss", "0.1", "-burst", "3", "-rtt", "200", "-history", "16", "-seed", "2", "-json")
	var stdout bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("run: %v", err)
	}
	var got map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, stdout.String())
	}
	for _, k := range []string{"ticks", "decoded_ticks", "mismatched_ticks", "full_Bps", "bytemask_Bps", "Bps", "mean_baseline_age", "full_fallbacks"} {
		if _, ok := got[k]; !ok {
			t.Errorf("key %q missing from %s", k, strings.TrimSpace(stdout.String()))
		}
	}
	if got["ticks"].(float64) != 600 || got["mismatched_ticks"].(float64) != 0 || got["start"].(float64) != 0.05 {
		t.Errorf("ticks %v mismatched %v start %v", got["ticks"], got["mismatched_ticks"], got["start"])
	}
	if age := got["mean_baseline_age"].(float64); age < 2 {
		t.Errorf("mean baseline age %v with 200 ms RTT at 10 Hz and loss; want at least 2", age)
	}
}
