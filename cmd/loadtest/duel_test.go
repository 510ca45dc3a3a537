package main

import (
	"encoding/json"
	"os/exec"
	"testing"
)

// -duel against a real server over WebRTC on loopback: two clients meet,
// the aimer shoots, and the JSON says how it went.
func TestDuelAgainstServer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs two programs")
	}
	dir := t.TempDir()
	serverExe := build(t, dir, "github.com/sightline-game/sightline/cmd/server")
	loadExe := build(t, dir, "github.com/sightline-game/sightline/cmd/loadtest")
	base := startServer(t, serverExe, "-bots", "0", "-creatures", "0", "-announce=false")

	out, err := exec.Command(loadExe, "-url", base, "-duel", "-latency", "20ms", "-jitter", "5ms", "-seconds", "3", "-json").Output()
	if err != nil {
		t.Fatalf("loadtest -duel: %v\n%s", err, out)
	}
	var r map[string]any
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, k := range []string{"shots", "hits", "hit_rate", "handover_mean_px", "handover_max_px", "behind_cover_hits", "mismatched_ticks", "mean_rewind_ms", "rewind_bounded", "view_lag_ms_mean", "view_lag_ms_p95", "agreement", "corrections_per_min", "remote_jumps_per_min", "input_delay_ms_p50"} {
		if _, ok := r[k]; !ok {
			t.Errorf("no %q in %s", k, out)
		}
	}
	if r["shots"].(float64) < 5 || r["mismatched_ticks"].(float64) != 0 || r["rewind_known"] != true || r["rewound_shots"].(float64) == 0 || r["view_lag_ms_mean"].(float64) <= 0 {
		t.Errorf("duel: %s", out)
	}
	t.Logf("%s", out)
}
