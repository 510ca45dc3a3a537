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
// every client joins and verifies every tick, their inputs come through
// the flood, and /metrics shows the flood dropped by the server.
//
// How late the inputs are is a figure of the machine's load as much as of
// the flood, so the test holds the flood to margins that a machine with
// both cores kept busy by other processes keeps, and that the server
// before the intake missed by far (its figures under the same flood: input
// lag 0.42 inputs without the flood and 17.5 with it, 34% of the ticks
// stepped without a client's input, 342,894 of about 500,000 datagrams
// dropped by the kernel). Measured with this server: a rise of -0.06,
// +0.13 and +0.17 inputs on machines without other load, of +0.24 and
// -0.05 with both cores kept busy; under 1% of the ticks without input;
// the kernel dropping at most 25,260 of 513,404 (5%), with both busy. The flood's cost on a quiet machine is measured by
// `make figures` and `loadtest -flood`.
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
	if r.Connected != 8 || r.MismatchedTicks != 0 || r.VerifiedTicks < 8*10*30*3/4 {
		t.Fatalf("%d of 8 connected, %d ticks verified, %d mismatched", r.Connected, r.VerifiedTicks, r.MismatchedTicks)
	}
	// A sender starved of CPU by a busy machine sends less than it was
	// asked (minFloodSent).
	if r.FloodError != "" || r.FloodSent < minFloodSent {
		t.Fatalf("the flood sent %d datagrams (%s)", r.FloodSent, r.FloodError)
	}
	// The flood may not cost a client's inputs: at most four inputs later
	// on average than the same clients without it (the server before the
	// intake: 17), and at most 5% of the ticks stepped without the
	// client's input.
	if rise := r.InputLagFlooded - r.InputLagUnflooded; rise > maxFloodLagRise {
		t.Errorf("input_lag_inputs rose by %.3f under the flood (%.3f to %.3f), want at most %.1f", rise, r.InputLagUnflooded, r.InputLagFlooded, maxFloodLagRise)
	}
	if r.LateInputs > maxLateInputs {
		t.Errorf("%.2f%% of the ticks stepped without a client's input, want at most %.0f%%", 100*r.LateInputs, 100*maxLateInputs)
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
	// Every datagram of the flood is accounted for: dropped by the server
	// as no peer's, or by the kernel while the server was not running
	// (a machine too busy to run the server's drains lets the buffer
	// fill); most of it by the server.
	if screened+kernel < float64(r.FloodSent)*9/10 {
		t.Errorf("the server dropped %.0f and the kernel %.0f of the flood's %d", screened, kernel, r.FloodSent)
	}
	if kernel > float64(r.FloodSent)*maxKernelShare {
		t.Errorf("the kernel dropped %.0f of the flood's %d, want at most %.0f%%", kernel, r.FloodSent, 100*maxKernelShare)
	}
}

// The flood test's margins: several times what this server shows with
// both cores busy, far under what the server before the intake showed.
// The lag's rise reached +1.1 to +1.8 inputs with the machine's two cores
// shared by six to twelve runnable processes (a load average of 6 to 12,
// 2026-12-06), against +0.24 with two busy loops beside the suite.
const (
	maxFloodLagRise = 4.0  // inputs; before the intake: +17
	maxLateInputs   = 0.05 // before the intake: 0.34
	maxKernelShare  = 0.5  // before the intake: 0.69
)

// minFloodSent is how many datagrams make a flood whatever the machine's
// load. A sender that a busy machine starves sends fewer than it was
// asked: 140,497 of the 500,000 of TestFloodLeavesPlayersInputs at a load
// average of 5.4 (2026-12-07), where a check for half of them failed. A
// stock receive buffer (425,984 bytes) holds some hundreds of small
// datagrams and the relay answers 500 unknown requests a second: 20,000
// overflow the one and outrun the other many times over.
const minFloodSent = 20000

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
