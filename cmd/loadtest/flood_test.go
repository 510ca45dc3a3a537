package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/sightline-game/sightline/internal/testnet"
)

// A flood of 100,000 garbage datagrams a second from another address on
// the server's UDP port, for 5 s while 8 real clients play, against
// the receive buffer of a stock Linux host (net.core.rmem_max 212,992):
// every client joins and verifies every tick, their inputs are no later
// than without the flood (input_lag_inputs at most 0.15 more), and
// /metrics shows the flood dropped by the server, not by the kernel. On
// the server before the intake the same flood took input_lag_inputs from
// about 0.3 to 12.5: the kernel dropped most of what the players sent.
func TestFloodLeavesPlayersInputs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs two programs, and floods loopback for 5 s")
	}
	dir := t.TempDir()
	serverExe := build(t, dir, "github.com/sightline-game/sightline/cmd/server")
	loadExe := build(t, dir, "github.com/sightline-game/sightline/cmd/loadtest")
	udpPort := testnet.FreePort(t, "udp")
	base := startServer(t, serverExe, "-udp-port", fmt.Sprint(udpPort), "-udp-buffer", "212992",
		"-offer-rate", "100", "-offer-burst", "100")
	// 10 s of play, the flood in the last 5: the same clients with it and
	// without it, so that the difference in their input lag is the
	// flood's (one run's lag differs from another's by as much as the
	// bar, with each client's phase to the server's ticks).
	out, err := exec.Command(loadExe, "-url", base, "-clients", "8", "-seconds", "10", "-json",
		"-flood", "100000", "-flood-after", "5s", "-flood-to", fmt.Sprintf("127.0.0.1:%d", udpPort), "-flood-from", "127.0.0.2").Output()
	if err != nil {
		t.Fatalf("loadtest: %v\n%s", err, out)
	}
	var r result
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("loadtest output: %v\n%s", err, out)
	}
	t.Logf("%s", out)
	if r.Connected != 8 || r.MismatchedTicks != 0 || r.VerifiedTicks < 8*10*30*9/10 {
		t.Fatalf("%d of 8 connected, %d ticks verified, %d mismatched", r.Connected, r.VerifiedTicks, r.MismatchedTicks)
	}
	if r.FloodError != "" || r.FloodSent < 5*100000*9/10 {
		t.Fatalf("the flood sent %d datagrams (%s)", r.FloodSent, r.FloodError)
	}
	if rise := r.InputLagFlooded - r.InputLagUnflooded; rise > 0.15 {
		t.Errorf("input_lag_inputs rose by %.3f under the flood (%.3f to %.3f), want at most 0.15", rise, r.InputLagUnflooded, r.InputLagFlooded)
	}
	// A tick stepped without a client's input: its inputs were lost, or
	// late (the first tick of each client's counts).
	if r.LateInputs > 0.01 {
		t.Errorf("%.2f%% of the ticks stepped without a client's input", 100*r.LateInputs)
	}

	resp, err := http.Get(metricsURL(base, isLocalIP) + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	text, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	screened := metricValue(t, string(text), `sightline_udp_intake_dropped_total{reason="not_peer"}`)
	kernel := metricValue(t, string(text), `sightline_udp_receive_dropped_total`)
	buffer := metricValue(t, string(text), `sightline_udp_receive_buffer_bytes`)
	t.Logf("/metrics: the server dropped %.0f as no peer's, the kernel %.0f, of a buffer of %.0f bytes", screened, kernel, buffer)
	if buffer != 2*212992 {
		t.Errorf("receive buffer %.0f bytes, want a stock host's 425984", buffer)
	}
	if screened < float64(r.FloodSent)*9/10 {
		t.Errorf("the server dropped %.0f of the flood's %d as no peer's", screened, r.FloodSent)
	}
	// Until the first round after the flood began, it overflowed the
	// buffer; from then on the socket was drained as it came.
	if kernel > float64(r.FloodSent)/50 {
		t.Errorf("the kernel dropped %.0f of the flood's %d", kernel, r.FloodSent)
	}
}

// metricValue is the value of series (a name with its labels, as
// Prometheus's text format writes them) in text.
func metricValue(t *testing.T, text, series string) float64 {
	t.Helper()
	for line := range strings.Lines(text) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), series+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatalf("%s: %v", series, err)
			}
			return f
		}
	}
	t.Fatalf("no %s in /metrics", series)
	return 0
}
