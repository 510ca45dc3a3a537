package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/transport/webrtc"
)

// The two hosts of the namespaced LAN and the server's ports. Each namespace
// is new and empty, so fixed ports are free there (freePort would probe the
// host's namespace, which says nothing about these).
const (
	netnsServerIP = "10.99.0.1"
	netnsClientIP = "10.99.0.2"
	netnsHTTPPort = 8080
	netnsUDPPort  = 8443

	// netnsHelperEnv, when set to the server's base URL, turns
	// TestNetnsHelperProcess into the probe that the LAN test re-executes
	// inside the client's namespace.
	netnsHelperEnv = "SIGHTLINE_NETNS_HELPER_URL"
	// netnsCandidatesMarker starts the probe's one line of output.
	netnsCandidatesMarker = "netns-candidates: "

	// netnsConnectTimeout is how long a client has to connect, on the
	// server's side and the load tester's.
	netnsConnectTimeout = time.Minute
)

// netnsRun tells namespaces of repeated runs (-count) of one test binary apart.
var netnsRun atomic.Int32

// netnsCandidate is one ICE candidate of the server's answer.
type netnsCandidate struct {
	Protocol string `json:"protocol"`
	Address  string `json:"address"`
	Port     int    `json:"port"`
	Type     string `json:"type"`
}

// The match across a real (namespaced) LAN rather than loopback: the server
// alone in one network namespace on 10.99.0.1, the load tester in another
// on 10.99.0.2, a veth pair between them, the server offering no loopback
// candidates. Then again with the server's host dropping 10% of the UDP
// packets it receives.
func TestNetnsLAN(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to create network namespaces and veth pairs")
	}
	ipExe, err := exec.LookPath("ip")
	if err != nil {
		t.Skipf("needs iproute2's ip: %v", err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// Covers builds and an nftables install on a cold machine; a warm run
	// takes about 15 s.
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	start := time.Now()

	dir := t.TempDir()
	serverExe := build(t, dir, "github.com/sightline-game/sightline/cmd/server")
	loadExe := build(t, dir, "github.com/sightline-game/sightline/cmd/loadtest")
	t.Logf("built in %v", time.Since(start).Round(time.Millisecond))

	// Names unique to this process and run; veth names stay within 15 bytes.
	pid, seq := os.Getpid(), netnsRun.Add(1)
	nsSrv := fmt.Sprintf("sightline-srv-%d-%d", pid, seq)
	nsCli := fmt.Sprintf("sightline-cli-%d-%d", pid, seq)
	vethSrv := fmt.Sprintf("slv%ds%d", pid, seq)
	vethCli := fmt.Sprintf("slv%dc%d", pid, seq)

	// sh runs one command, logs its output and fails the test if it fails.
	sh := func(args ...string) string {
		t.Helper()
		out, err := exec.CommandContext(ctx, args[0], args[1:]...).CombinedOutput()
		t.Logf("$ %s\n%s", strings.Join(args, " "), out)
		if err != nil {
			t.Fatalf("%s: %v", strings.Join(args, " "), err)
		}
		return string(out)
	}

	// Cleanups run last-registered first: the server is stopped (registered
	// below) before the namespaces go. Deleting a namespace deletes its end
	// of the veth pair and with it the other end.
	t.Cleanup(func() {
		for _, ns := range []string{nsSrv, nsCli} {
			out, err := exec.Command(ipExe, "netns", "delete", ns).CombinedOutput()
			if err != nil && !strings.Contains(string(out), "No such file") {
				t.Errorf("ip netns delete %s: %v\n%s", ns, err, out)
			}
		}
		if out, err := exec.Command(ipExe, "netns", "list").CombinedOutput(); err == nil {
			for _, ns := range []string{nsSrv, nsCli} {
				if strings.Contains(string(out), ns) {
					t.Errorf("namespace %s still there after cleanup:\n%s", ns, out)
				}
			}
		}
	})
	sh(ipExe, "netns", "add", nsSrv)
	sh(ipExe, "netns", "add", nsCli)
	sh(ipExe, "link", "add", vethSrv, "netns", nsSrv, "type", "veth", "peer", "name", vethCli, "netns", nsCli)
	sh(ipExe, "-n", nsSrv, "addr", "add", netnsServerIP+"/24", "dev", vethSrv)
	sh(ipExe, "-n", nsCli, "addr", "add", netnsClientIP+"/24", "dev", vethCli)
	for _, l := range [][2]string{{nsSrv, vethSrv}, {nsCli, vethCli}, {nsSrv, "lo"}, {nsCli, "lo"}} {
		sh(ipExe, "-n", l[0], "link", "set", l[1], "up")
	}
	sh(ipExe, "-n", nsSrv, "-br", "addr")
	sh(ipExe, "-n", nsCli, "-br", "addr")

	// The server, alone in its namespace. `ip netns exec` execs the program,
	// so the process started is the server itself.
	base := fmt.Sprintf("http://%s:%d", netnsServerIP, netnsHTTPPort)
	var srvLog bytes.Buffer
	srv := exec.Command(ipExe, "netns", "exec", nsSrv, serverExe,
		"-addr", fmt.Sprintf("%s:%d", netnsServerIP, netnsHTTPPort),
		"-udp-port", strconv.Itoa(netnsUDPPort), "-bots", "1", "-loopback=false",
		// A connection's handshakes through 10% loss each way wait out
		// their retransmission timers (a second, doubling): on a busy
		// machine, more than the default 10 s. What the test asks is that
		// the stream flows through the loss, not how soon it opens.
		"-connect-timeout", netnsConnectTimeout.String())
	srv.Stdout, srv.Stderr = &srvLog, &srvLog
	t.Logf("$ %s", strings.Join(srv.Args, " "))
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	srvDone := make(chan error, 1)
	go func() { srvDone <- srv.Wait() }()
	t.Cleanup(func() {
		srv.Process.Signal(os.Interrupt)
		var err error
		select {
		case err = <-srvDone:
		case <-time.After(2 * time.Minute): // a hang guard
			srv.Process.Kill()
			err = <-srvDone
			t.Errorf("server ignored the interrupt for 2 minutes; killed")
		}
		// srvLog is complete once Wait has returned.
		if t.Failed() {
			t.Logf("server (%v) log:\n%s", err, srvLog.String())
		}
	})
	serverAlive := func() {
		t.Helper()
		select {
		case err := <-srvDone:
			srvDone <- err // for the cleanup
			t.Fatalf("server exited: %v", err)
		default:
		}
	}

	// Wait for the server from the client's namespace, and read its ICE
	// candidates: this test binary, re-executed there, polls /healthz and
	// opens one WebRTC connection, keeping the signalling answer.
	t0 := time.Now()
	probe := exec.CommandContext(ctx, ipExe, "netns", "exec", nsCli, self,
		"-test.run=^TestNetnsHelperProcess$", "-test.count=1", "-test.v")
	probe.Env = append(os.Environ(), netnsHelperEnv+"="+base)
	out, err := probe.CombinedOutput()
	t.Logf("$ %s=%s %s\n%s", netnsHelperEnv, base, strings.Join(probe.Args, " "), out)
	if err != nil {
		serverAlive()
		t.Fatalf("probe from %s: %v", nsCli, err)
	}
	var cands []netnsCandidate
	for line := range strings.Lines(string(out)) {
		if s, ok := strings.CutPrefix(strings.TrimSpace(line), netnsCandidatesMarker); ok {
			if err := json.Unmarshal([]byte(s), &cands); err != nil {
				t.Fatalf("probe output: %v", err)
			}
		}
	}
	t.Logf("server healthy and connectable from %s after %v; its candidates: %+v", nsCli, time.Since(t0).Round(time.Millisecond), cands)
	lan := false
	for _, c := range cands {
		switch {
		case c.Address == netnsServerIP && c.Port == netnsUDPPort && c.Protocol == "udp" && c.Type == "host":
			lan = true
		case strings.HasPrefix(c.Address, "127.") || c.Address == "::1":
			t.Errorf("server offered a loopback candidate with -loopback=false: %+v", c)
		}
	}
	if !lan {
		t.Fatalf("server did not offer the host candidate udp %s:%d: %+v", netnsServerIP, netnsUDPPort, cands)
	}

	// loadTest runs the load tester in the client's namespace.
	loadTest := func(phase string, args ...string) result {
		t.Helper()
		serverAlive()
		t0 := time.Now()
		cmd := exec.CommandContext(ctx, ipExe, append([]string{"netns", "exec", nsCli, loadExe, "-json", "-v"}, args...)...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run() // non-zero when a client failed: the JSON says why
		t.Logf("%s: $ %s (%v, %v)\nstdout:\n%s\nstderr:\n%s", phase, strings.Join(cmd.Args, " "),
			err, time.Since(t0).Round(time.Millisecond), stdout.String(), netnsTail(stderr.String(), 8000))
		var r result
		if jerr := json.Unmarshal(stdout.Bytes(), &r); jerr != nil {
			t.Fatalf("%s: load test: %v; output: %v", phase, err, jerr)
		}
		if err != nil {
			t.Errorf("%s: load test exited: %v", phase, err)
		}
		serverAlive()
		return r
	}

	// Phase one: a clean LAN.
	// Each client plays 3 s and on until it verified 60 ticks: a count,
	// not a rate, so a busy machine makes it slower, not red.
	r := loadTest("lan", "-url", base, "-clients", "3", "-seconds", "3", "-verified", "60")
	if r.Clients != 3 || r.Connected != 3 || r.MismatchedTicks != 0 || r.VerifiedTicks < 3*60 {
		t.Fatalf("lan: want 3 of 3 connected, 0 mismatched, >= 180 verified ticks; got %+v", r)
	}

	// Phase two: each host drops 10% of the UDP packets it receives (media,
	// DTLS, SCTP, STUN, beacons), and the client finds the match by its LAN
	// beacon, joins and plays for ten seconds, and on until it verified
	// 200 ticks.
	nft, ok := netnsNft(t, ctx)
	if !ok {
		t.Fatal("nft is missing and could not be installed (make deps installs nftables)")
	}
	for _, ns := range []string{nsSrv, nsCli} {
		sh(ipExe, "netns", "exec", ns, nft, "add", "table", "inet", "sightline")
		sh(ipExe, "netns", "exec", ns, nft, "add", "chain", "inet", "sightline", "loss", "{ type filter hook input priority 0; }")
		sh(ipExe, "netns", "exec", ns, nft, "add", "rule", "inet", "sightline", "loss",
			"meta", "l4proto", "udp", "numgen", "random", "mod", "100", "<", "10", "counter", "drop")
	}
	r = loadTest("loss", "-discover", "-clients", "1", "-seconds", "10", "-verified", "200", "-connect-timeout", netnsConnectTimeout.String())
	if r.URL != base {
		t.Fatalf("loss: discovered %q, want the host at %q", r.URL, base)
	}
	// The stream flows and verifies through the loss: a client verifies
	// about 270 ticks in 10 s on a quiet machine, 192 with both cores busy
	// beside the suite; it plays on until it verified 200.
	if r.Clients != 1 || r.Connected != 1 || r.MismatchedTicks != 0 || r.VerifiedTicks < 200 {
		t.Fatalf("loss: want 1 of 1 connected, 0 mismatched, >= 200 verified ticks; got %+v", r)
	}
	for _, ns := range []string{nsSrv, nsCli} {
		rules := sh(ipExe, "netns", "exec", ns, nft, "list", "chain", "inet", "sightline", "loss")
		m := regexp.MustCompile(`counter packets (\d+)`).FindStringSubmatch(rules)
		if m == nil {
			t.Fatalf("no counter in the rule:\n%s", rules)
		}
		if dropped, _ := strconv.Atoi(m[1]); dropped == 0 {
			t.Fatalf("the loss rule in %s dropped nothing:\n%s", ns, rules)
		} else {
			t.Logf("loss: the rule in %s dropped %d UDP packets", ns, dropped)
		}
	}
	t.Logf("whole test %v", time.Since(start).Round(time.Millisecond))
}

// netnsNft returns the path of nft, installing nftables if it is missing.
func netnsNft(t *testing.T, ctx context.Context) (string, bool) {
	t.Helper()
	if p, err := exec.LookPath("nft"); err == nil {
		return p, true
	}
	if _, err := exec.LookPath("apt-get"); err != nil {
		t.Logf("nft missing and no apt-get: %v", err)
		return "", false
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	apt := func(args ...string) error {
		cmd := exec.CommandContext(ctx, "apt-get", append([]string{"-o", "DPkg::Lock::Timeout=60"}, args...)...)
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		out, err := cmd.CombinedOutput()
		t.Logf("$ %s (%v)\n%s", strings.Join(cmd.Args, " "), err, netnsTail(string(out), 4000))
		return err
	}
	install := []string{"install", "-y", "--no-install-recommends", "nftables"}
	if apt(install...) != nil {
		// Perhaps only the package lists are missing or stale.
		if apt("update") != nil || apt(install...) != nil {
			return "", false
		}
	}
	p, err := exec.LookPath("nft")
	if err != nil {
		t.Logf("nftables installed but nft not found: %v", err)
		return "", false
	}
	return p, true
}

// netnsTail keeps the last n bytes of s.
func netnsTail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "...\n" + s[len(s)-n:]
}

// TestNetnsHelperProcess is not a test on its own: TestNetnsLAN runs this
// binary again inside the client's namespace, where it waits for the
// server's /healthz, connects once over WebRTC and prints the ICE
// candidates of the server's answer. Without its environment variable it
// does nothing.
func TestNetnsHelperProcess(t *testing.T) {
	base := os.Getenv(netnsHelperEnv)
	if base == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a hang guard
	defer cancel()

	hc := &http.Client{Timeout: time.Second}
	for {
		resp, err := hc.Get(base + "/healthz")
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if strings.TrimSpace(string(body)) == "ok" {
				break
			}
			err = fmt.Errorf("%s: %q", resp.Status, body)
		}
		if ctx.Err() != nil {
			t.Fatalf("server not healthy: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}

	rec := &netnsAnswerRecorder{next: http.DefaultTransport}
	conn, err := webrtc.Dial(ctx, base+client.SignalPath, webrtc.DialConfig{Version: protocol.Version, HTTPClient: &http.Client{Transport: rec}})
	if err != nil {
		var answer []byte
		if b := rec.body.Load(); b != nil {
			answer = *b
		}
		t.Fatalf("webrtc dial: %v (answer %q)", err, answer)
	}
	conn.Close()
	body := rec.body.Load()
	if body == nil {
		t.Fatal("no answer recorded")
	}
	var answer struct {
		Type string `json:"type"`
		SDP  string `json:"sdp"`
	}
	if err := json.Unmarshal(*body, &answer); err != nil {
		t.Fatalf("answer: %v\n%s", err, *body)
	}
	var cands []netnsCandidate
	for line := range strings.Lines(answer.SDP) {
		// a=candidate:foundation component protocol priority address port typ type ...
		s, ok := strings.CutPrefix(strings.TrimSpace(line), "a=candidate:")
		if !ok {
			continue
		}
		f := strings.Fields(s)
		if len(f) < 8 || f[6] != "typ" {
			t.Fatalf("candidate line %q", line)
		}
		port, err := strconv.Atoi(f[5])
		if err != nil {
			t.Fatalf("candidate line %q: %v", line, err)
		}
		cands = append(cands, netnsCandidate{Protocol: strings.ToLower(f[2]), Address: f[4], Port: port, Type: f[7]})
	}
	if len(cands) == 0 {
		t.Fatalf("answer without candidates:\n%s", answer.SDP)
	}
	js, _ := json.Marshal(cands)
	fmt.Printf("\n%s%s\n", netnsCandidatesMarker, js)
}

// netnsAnswerRecorder keeps the body of the signalling answer.
type netnsAnswerRecorder struct {
	next http.RoundTripper
	body atomic.Pointer[[]byte]
}

func (r *netnsAnswerRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, errors.Join(errors.New("reading the answer"), err)
	}
	r.body.Store(&b)
	resp.Body = io.NopCloser(bytes.NewReader(b))
	return resp, nil
}
