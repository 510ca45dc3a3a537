package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sightline-game/sightline/internal/testnet"
)

// built holds the programs the tests run, each built once for all the
// tests of this process (the first test to ask builds it), in dir, which
// TestMain removes.
var built struct {
	sync.Mutex
	dir  string
	exes map[string]*builtExe
}

// builtExe is one program, built once.
type builtExe struct {
	once sync.Once
	path string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// build returns the path of the program pkg, built the first time a test
// of this process asks for it and shared by all of them, copied into dir
// (tests that serve dir, or run the program from it, see it there).
func build(t *testing.T, dir, pkg string) string {
	t.Helper()
	built.Lock()
	if built.dir == "" {
		d, err := os.MkdirTemp("", "loadtest-bin-")
		if err != nil {
			built.Unlock()
			t.Fatal(err)
		}
		built.dir, built.exes = d, map[string]*builtExe{}
	}
	b := built.exes[pkg]
	if b == nil {
		b = &builtExe{path: filepath.Join(built.dir, filepath.Base(pkg))}
		built.exes[pkg] = b
	}
	built.Unlock()
	b.once.Do(func() {
		if out, err := exec.Command("go", "build", "-o", b.path, pkg).CombinedOutput(); err != nil {
			b.err = fmt.Errorf("build %s: %v\n%s", pkg, err, out)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	exe := filepath.Join(dir, filepath.Base(pkg))
	if os.Link(b.path, exe) != nil { // another file system: a copy
		bin, err := os.ReadFile(b.path)
		if err == nil {
			err = os.WriteFile(exe, bin, 0o755)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return exe
}

// startServer runs the server built at exe on free ports with args and
// returns its base URL once it is healthy; it stops when the test ends.
// Its counters are where it serves them by default, on loopback at the
// HTTP port + 1, which the load tester finds by itself (metricsURL).
func startServer(t *testing.T, exe string, args ...string) string {
	t.Helper()
	httpPort, udpPort := testnet.FreePortPair(t), testnet.FreePort(t, "udp")
	base := fmt.Sprintf("http://127.0.0.1:%d", httpPort)
	var logs bytes.Buffer
	srv := exec.Command(exe, append([]string{"-addr", fmt.Sprintf("127.0.0.1:%d", httpPort), "-udp-port", fmt.Sprint(udpPort)}, args...)...)
	srv.Stdout, srv.Stderr = &logs, &logs
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		srv.Process.Signal(os.Interrupt)
		srv.Wait()
		if t.Failed() {
			t.Logf("server %v log:\n%s", args, logs.String())
		}
	})
	deadline := time.Now().Add(2 * time.Minute)
	for {
		resp, err := http.Get(base + "/healthz")
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if strings.TrimSpace(string(body)) == "ok" {
				return base
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("server not healthy: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// The dedicated server and the load tester as a newcomer runs them: real
// processes, real WebRTC on loopback, bots in the match, verification on.
func TestServerAndLoadTest(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs two programs")
	}
	dir := t.TempDir()
	serverExe := build(t, dir, "github.com/sightline-game/sightline/cmd/server")
	loadExe := build(t, dir, "github.com/sightline-game/sightline/cmd/loadtest")

	base := startServer(t, serverExe, "-bots", "20", "-rate", "4000", "-debug-gc",
		"-offer-rate", "0.5", "-offer-burst", "2") // the 4 clients share an address: some must wait their turn

	// Each client's conditioner loses 10% of unreliable messages both ways,
	// in bursts of about 4.
	out, err := exec.Command(loadExe, "-url", base, "-clients", "4", "-seconds", "3", "-budget", "4000",
		"-loss", "0.1", "-burst", "4", "-latency", "20ms", "-jitter", "10ms", "-json").Output()
	if err != nil {
		t.Fatalf("loadtest: %v\n%s", err, out)
	}
	var r result
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("loadtest output: %v\n%s", err, out)
	}
	t.Logf("%s", out)
	if r.Clients != 4 || r.Connected != 4 || r.MismatchedTicks != 0 || r.VerifiedTicks < 4*60 || r.P99PacketBytes == 0 || r.ConnectMsMax <= 0 ||
		r.OverBudget || r.MaxBpsPerClient > 4000*31/30 || r.MaxPacketBytes > 1200 || r.LossDown < 0.02 || r.LossUp < 0.02 {
		t.Fatalf("load test result %+v", r)
	}
	// Two of the four offers met the server's rate limit and waited at
	// least a second; their handshakes, counted without the waits, did not.
	if r.Retries < 1 || r.ConnectMsMax < 1000 || r.HandshakeMsMax <= 0 || r.HandshakeMsP50 > r.ConnectMsP50 || r.HandshakeMsMax >= r.ConnectMsMax {
		t.Fatalf("connect times with %d retries: p50 %.0f ms, max %.0f ms; without the waits p50 %.0f ms, max %.0f ms",
			r.Retries, r.ConnectMsP50, r.ConnectMsMax, r.HandshakeMsP50, r.HandshakeMsMax)
	}

	// The counters page shows the match: bots plus the load test's clients
	// joined. It is on loopback at the HTTP port + 1, not the public port.
	counters := metricsURL(base, isLocalIP)
	if counters == base {
		t.Fatalf("metricsURL(%s) = itself, want loopback at the port + 1", base)
	}
	for _, path := range []string{"/debug/vars", "/metrics"} {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Fatalf("GET %s on the public address: %s, want 404", path, resp.Status)
		}
	}
	resp, err := http.Get(counters + "/debug/vars")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var vars struct {
		Match struct {
			Joined        uint64
			SnapshotsSent uint64
			BytesSent     uint64
			Tick          uint64
			MaxTick       int64
		} `json:"match"`
		Heap struct {
			LiveBytes uint64 `json:"live_bytes"`
			Cycles    uint64 `json:"gc_cycles"`
		} `json:"heap"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&vars); err != nil {
		t.Fatal(err)
	}
	if vars.Match.Joined != 24 || vars.Match.SnapshotsSent == 0 || vars.Match.BytesSent == 0 || vars.Match.Tick == 0 || vars.Match.MaxTick <= 0 {
		t.Fatalf("counters %+v", vars.Match)
	}
	if vars.Heap.LiveBytes < 1<<20 || vars.Heap.Cycles == 0 {
		t.Fatalf("heap %+v", vars.Heap)
	}

	// -debug-gc: a collection on request, answering the heap after it.
	gc, err := http.Post(counters+"/debug/gc", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer gc.Body.Close()
	after := vars.Heap
	if err := json.NewDecoder(gc.Body).Decode(&after); err != nil {
		t.Fatal(err)
	}
	if gc.StatusCode != http.StatusOK || after.Cycles <= vars.Heap.Cycles || after.LiveBytes < 1<<20 {
		t.Fatalf("POST /debug/gc: %s, heap %+v (before %+v)", gc.Status, after, vars.Heap)
	}

	// Three matches in one server: -matches spreads 6 clients over them,
	// two each, and reports each match's; 2 spectators watch matches 1
	// and 2 (one follows the leader, one flies a free camera) and are
	// reported apart.
	multi := startServer(t, serverExe, "-matches", "3", "-bots", "2", "-offer-rate", "100", "-offer-burst", "100")
	out, err = exec.Command(loadExe, "-url", multi, "-matches", "-clients", "6", "-spectators", "2", "-seconds", "3", "-json").Output()
	if err != nil {
		t.Fatalf("loadtest -matches: %v\n%s", err, out)
	}
	t.Logf("%s", out)
	var m result
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatalf("loadtest -matches output: %v\n%s", err, out)
	}
	if m.Clients != 6 || m.Connected != 6 || m.MismatchedTicks != 0 || m.VerifiedTicks < 6*60 || len(m.Matches) != 3 {
		t.Fatalf("load test -matches result %+v", m)
	}
	var sum uint64
	for i, mr := range m.Matches {
		if mr.Match != fmt.Sprint(i+1) || mr.Clients != 2 || mr.Connected != 2 || mr.MismatchedTicks != 0 || mr.VerifiedTicks < 2*60 {
			t.Errorf("match %d: %+v", i+1, mr)
		}
		sum += mr.VerifiedTicks
	}
	if sum != m.VerifiedTicks {
		t.Errorf("the matches verified %d ticks in all, the total says %d", sum, m.VerifiedTicks)
	}
	if w := m.Spectators; w == nil || w.Clients != 2 || w.Connected != 2 || w.MismatchedTicks != 0 || w.VerifiedTicks < 2*60 {
		t.Errorf("spectators: %+v", w)
	}
}

// One capacity trial: two matches of 4 players, 2 of them WebRTC clients,
// hosted in this process, all connected and verified, tick times measured.
func TestCapacityTrial(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two matches with WebRTC clients for seconds")
	}
	o := capacityOptions{Players: 4, People: 2, Seconds: 1.5, Warmup: time.Second, TickRate: 30, Max: 2, Logger: slog.New(slog.DiscardHandler)}
	tr := runTrial(t.Context(), o, 2, 50*time.Millisecond)
	t.Log(formatTrial(tr, o.People))
	if tr.Matches != 2 || tr.Connected != 4 || tr.Verified < 4*15 || tr.Mismatched != 0 || tr.TickP99Ms <= 0 || tr.TickP50Ms > tr.TickP99Ms ||
		tr.HeapPerMatch <= 0 || tr.Err != "" {
		t.Fatalf("trial %+v", tr)
	}
	// A limit no tick meets fails the trial.
	if tr := runTrial(t.Context(), o, 1, time.Nanosecond); tr.Pass || tr.Connected != 2 {
		t.Fatalf("trial under a limit of 1 ns: %+v", tr)
	}
}
