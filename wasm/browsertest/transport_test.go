package browsertest

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/transport"
	"github.com/sightline-game/sightline/netcode/transport/webrtc"
)

// probePage loads the probe (wasm/browsertest/probe) into window.probe.
const probePage = `<!doctype html>
<meta charset="utf-8"><title>transport probe</title>
<script src="wasm_exec.js"></script>
<script>
window.probe = {};
const go = new Go();
WebAssembly.instantiateStreaming(fetch("probe.wasm"), go.importObject)
	.then((r) => go.run(r.instance))
	.catch((e) => { window.probe.fatal = String(e); });
</script>`

// probeState is window.probe as the probe reports it.
type probeState struct {
	Fatal          string `json:"fatal"`
	DialError      string `json:"dialError"`
	SendError      string `json:"sendError"`
	EchoError      string `json:"echoError"`
	Retries        []any  `json:"retries"`
	Connected      bool   `json:"connected"`
	TooLarge       bool   `json:"tooLarge"`
	UnknownChannel bool   `json:"unknownChannel"`
	Events         int    `json:"events"`
	OutOfOrder     int    `json:"outOfOrder"`
	Snapshots      int    `json:"snapshots"`
	Sent           uint64 `json:"sent"`
	Received       uint64 `json:"received"`
	QueueDropped   uint64 `json:"queueDropped"`
	SendAfterDone  bool   `json:"sendAfterDone"`
	Done           bool   `json:"done"`
}

// The browser's transport (package transport/browser, the browser's own
// RTCPeerConnection) against the native server (pion): the probe is told
// 503 with Retry-After 1 first and must come back; its four channels are
// the ones the server accepts; it greets on each client channel; 400
// numbered events arrive and are echoed back in order; snapshots arrive;
// when the server closes, the probe's connection ends and refuses sends.
func TestBrowserTransport(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a WebAssembly probe and runs Chromium")
	}
	chromium := requireChromium(t)

	dir := t.TempDir()
	goTool := goCommand(t)
	if err := run(goTool, []string{"GOOS=js", "GOARCH=wasm"}, "build", "-trimpath", "-o", filepath.Join(dir, "probe.wasm"),
		"github.com/sightline-game/sightline/wasm/browsertest/probe"); err != nil {
		t.Fatal(err)
	}
	execJS, err := os.ReadFile(filepath.Join(goEnv(t, goTool, "GOROOT"), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "wasm_exec.js"), execJS, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte(probePage), 0o644); err != nil {
		t.Fatal(err)
	}

	rtc, err := webrtc.NewServer(webrtc.ServerConfig{Version: protocol.Version, UDPHost: "127.0.0.1", IncludeLoopback: true, ConnectTimeout: connectTimeout})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rtc.Close() })
	var offers atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("POST /signal", func(w http.ResponseWriter, r *http.Request) {
		if offers.Add(1) == 1 { // the first offer is put off, as by a busy server
			_, _ = io.Copy(io.Discard, r.Body)
			w.Header().Set("Retry-After", "1")
			http.Error(w, "too many connecting", http.StatusServiceUnavailable)
			return
		}
		rtc.ServeHTTP(w, r)
	})
	mux.Handle("/", http.FileServer(http.Dir(dir)))
	hs := httptest.NewServer(mux)
	t.Cleanup(hs.Close)

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	t.Cleanup(cancel)
	tb := newTab(t, startBrowser(t, ctx, chromium), "probe")
	loadCtx, cancelLoad := context.WithTimeout(tb.ctx, browserWait)
	defer cancelLoad()
	if err := chromedp.Do(loadCtx, chromedp.Navigate(hs.URL+"/")); err != nil {
		t.Fatal(err)
	}
	state := func() probeState {
		t.Helper()
		c, cancel := context.WithTimeout(tb.ctx, browserWait)
		defer cancel()
		st, err := chromedp.Run(c, chromedp.Evaluate[probeState](`window.probe`))
		if err != nil {
			t.Fatalf("read window.probe: %v", err)
		}
		return st
	}
	waitFor := func(what string, ok func(probeState) bool) probeState {
		t.Helper()
		deadline := time.Now().Add(browserWait)
		for {
			st := state()
			if ok(st) {
				return st
			}
			if st.Fatal != "" || st.DialError != "" || st.Done && what != "done" {
				t.Fatalf("waiting for %s: %+v; page problems %q", what, st, tb.problems())
			}
			if time.Now().After(deadline) {
				t.Fatalf("waiting %v for %s: %+v; page problems %q", browserWait, what, st, tb.problems())
			}
			time.Sleep(50 * time.Millisecond)
		}
	}

	acceptCtx, cancelAccept := context.WithTimeout(ctx, browserWait)
	defer cancelAccept()
	began := time.Now()
	sc, err := rtc.Accept(acceptCtx)
	if err != nil {
		t.Fatalf("accept the browser: %v (page %+v)", err, state())
	}
	t.Logf("the browser connected %v after the page opened, after %d offers", time.Since(began).Round(time.Millisecond), offers.Load())
	st := waitFor("connected", func(s probeState) bool { return s.Connected })
	if len(st.Retries) != 2 || st.Retries[0] != float64(1) || !strings.Contains(fmt.Sprint(st.Retries[1]), "too many connecting") {
		t.Errorf("the probe heard of the retry as %v, want [1 \"...503...: too many connecting\"]", st.Retries)
	}
	if offers.Load() != 2 {
		t.Errorf("%d offers posted, want 2 (one put off, one answered)", offers.Load())
	}
	if !st.TooLarge || !st.UnknownChannel || st.SendError != "" {
		t.Errorf("Send checks: too large refused %v, unknown channel refused %v, send error %q", st.TooLarge, st.UnknownChannel, st.SendError)
	}

	// The greetings, one on each channel a client sends on.
	greeted := map[transport.Channel]string{}
	deadline := time.Now().Add(browserWait)
	for len(greeted) < 3 && time.Now().Before(deadline) {
		sc.Receive(func(ch transport.Channel, p []byte) { greeted[ch] = string(p) })
		time.Sleep(10 * time.Millisecond)
	}
	for _, ch := range []transport.Channel{transport.Inputs, transport.Replicas, transport.Events} {
		if want := "hello " + ch.String(); greeted[ch] != want {
			t.Errorf("%s channel: got %q, want %q", ch, greeted[ch], want)
		}
	}

	// 400 events of 200 bytes, then 100 snapshots of 1000 bytes paced at
	// 2 ms, while the events come back.
	const nEvents, nSnapshots = 400, 100
	ev := make([]byte, 200)
	for i := range nEvents {
		binary.BigEndian.PutUint32(ev, uint32(i))
		if err := sc.Send(transport.Events, ev); err != nil {
			t.Fatalf("send event %d: %v", i, err)
		}
	}
	var echoed, echoOutOfOrder int
	echo := func(ch transport.Channel, p []byte) {
		if ch != transport.Events {
			return
		}
		if len(p) != len(ev) || int(binary.BigEndian.Uint32(p)) != echoed {
			echoOutOfOrder++
		}
		echoed++
	}
	snap := make([]byte, 1000)
	sentSnapshots := 0
	for i := range nSnapshots {
		binary.BigEndian.PutUint32(snap, uint32(i))
		if sc.Send(transport.Snapshots, snap) == nil {
			sentSnapshots++
		}
		sc.Receive(echo)
		time.Sleep(2 * time.Millisecond)
	}
	deadline = time.Now().Add(browserWait)
	for echoed < nEvents && time.Now().Before(deadline) {
		sc.Receive(echo)
		time.Sleep(10 * time.Millisecond)
	}
	st = waitFor("every event", func(s probeState) bool { return s.Events >= nEvents })
	t.Logf("probe: %d events (%d out of order), %d of %d snapshots sent, sent %d, received %d, queue dropped %d; %d events echoed back",
		st.Events, st.OutOfOrder, st.Snapshots, sentSnapshots, st.Sent, st.Received, st.QueueDropped, echoed)
	if st.Events != nEvents || st.OutOfOrder != 0 || st.EchoError != "" {
		t.Errorf("the probe received %d events, %d out of order (echo error %q), want %d in order", st.Events, st.OutOfOrder, st.EchoError, nEvents)
	}
	if echoed != nEvents || echoOutOfOrder != 0 {
		t.Errorf("the server got %d events back, %d out of order, want %d in order", echoed, echoOutOfOrder, nEvents)
	}
	if sentSnapshots == 0 || st.Snapshots == 0 || st.Snapshots > sentSnapshots {
		t.Errorf("snapshots: %d sent, %d received", sentSnapshots, st.Snapshots)
	}
	if want := uint64(3 + nEvents); st.Sent != want {
		t.Errorf("the probe's Stats count %d sent, want %d", st.Sent, want)
	}
	if want := uint64(nEvents + st.Snapshots); st.Received != want {
		t.Errorf("the probe's Stats count %d received, want %d", st.Received, want)
	}

	// The server leaves: the probe's connection ends.
	closedAt := time.Now()
	sc.Close()
	st = waitFor("done", func(s probeState) bool { return s.Done })
	t.Logf("the probe's connection ended %v after the server closed it", time.Since(closedAt).Round(time.Millisecond))
	if !st.SendAfterDone {
		t.Error("Send after the connection ended did not return transport.ErrClosed")
	}
	// The browser logs the 503 it was told first; nothing else may go wrong.
	var bad []string
	for _, p := range tb.problems() {
		if !strings.Contains(p, "status of 503") {
			bad = append(bad, p)
		}
	}
	if len(bad) > 0 {
		t.Errorf("page problems: %q", bad)
	}
}
