package browsertest

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/bots/brain"
	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/internal/testnet"
	"github.com/sightline-game/sightline/netcode/transport/webrtc"
)

const (
	chromiumPath = "/usr/bin/chromium"
	viewW, viewH = 1280, 720
	// browserWait bounds every wait on the browser and on what it makes
	// the server do: page load to first datagram takes 3-6 s on an idle
	// machine, many times that on a loaded one. Each wait ends as soon as
	// what it waits for is there.
	browserWait = 2 * time.Minute
	// wantDecoded is how many snapshots each tab decodes before the checks.
	wantDecoded = 100
	// freezeFor is how long one tab stays frozen: under the server's
	// timeout for a silent client, so the player must stay in the match.
	freezeFor = 2 * time.Second
	// clientTimeout is the test servers' timeout for a silent client, 30 s
	// rather than the 5 s default: on a busy machine a page's first frames
	// (software WebGL compiling its shaders) held its main thread for 11 s,
	// and no test here is about the timeout.
	clientTimeout = 30 * time.Second
	// connectTimeout is the test servers' limit for a peer to open its
	// channels, a minute rather than the 10 s default: a page on a machine
	// busy with the rest of the suite once took longer.
	connectTimeout = time.Minute
)

// The browser client plays: two tabs of a headless Chromium and one headless
// native client join a dedicated server hosting two matches with bots, all
// decode their match and agree with the server's hash of every tick; a
// frozen tab picks up again. The first tab opens the bare address: the page
// lists the two matches and the test clicks the second; the second tab
// clicks match 1's watch button and watches it as a spectator; the
// headless client names match 1.
func TestBrowserPlays(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the WebAssembly client and the server, and runs Chromium")
	}
	chromium := requireChromium(t)
	began := time.Now()

	// 1. Build the browser client and the server (without the .br and
	// .gz: the server gzips game.wasm itself); serve the one from the other.
	dir := t.TempDir()
	web, serverExe := filepath.Join(dir, "web"), filepath.Join(dir, "server")
	buildWeb(t, web, serverExe, false)
	wasmInfo, err := os.Stat(filepath.Join(web, "game.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("built in %v", time.Since(began).Round(100*time.Millisecond))

	base := startServer(t, serverExe, web, "-matches", "2")

	// 7 (sizes). What the server sends for game.wasm, gzipped and not.
	sizes := wasmSizes(t, base+"/game.wasm")
	if sizes.raw != int(wasmInfo.Size()) || sizes.uncompressed != sizes.raw || sizes.gunzipped != sizes.raw || sizes.gzip <= 0 || sizes.gzip >= sizes.raw {
		t.Fatalf("game.wasm served as %+v; the build is %d bytes", sizes, wasmInfo.Size())
	}

	// 2. Chromium, headless, software WebGL2, a fresh profile.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	t.Cleanup(cancel)
	browser := startBrowser(t, ctx, chromium)

	// 3. Two tabs and one headless native client, all at once.
	tabs := []*tab{newTab(t, browser, "tab1"), newTab(t, browser, "tab2")}
	tabs[0].pick = "2"                      // chosen from the page's list
	tabs[1].pick, tabs[1].watch = "1", true // watched: the list's watch button
	headless := startHeadless(t, ctx, base, "1")
	var loadWG sync.WaitGroup
	for _, tb := range tabs {
		loadWG.Add(1)
		go func() {
			defer loadWG.Done()
			tb.loadErr = tb.load(base + "/?name=" + tb.name + tb.query)
		}()
	}
	loadWG.Wait()
	for _, tb := range tabs {
		if tb.loadErr != nil {
			t.Fatalf("%s: %v", tb.name, tb.loadErr)
		}
	}

	// 4. Every tab decoded, verified and agreed, without a page error.
	for _, tb := range tabs {
		st := tb.state(t)
		t.Logf("%s: %s", tb.name, st)
		if bad := st.problems(wantDecoded); len(bad) > 0 {
			t.Errorf("%s: %s\n  (%s)", tb.name, strings.Join(bad, "; "), st)
		}
		if p := tb.problems(); len(p) > 0 {
			t.Errorf("%s: page errors:\n  %s", tb.name, strings.Join(p, "\n  "))
		}
	}
	if t.Failed() {
		t.FailNow()
	}

	// 4b. Each player is in the match it chose: match 1 has its 4 bots, tab2 (watching)
	// and the headless client; match 2 its 4 bots and tab1, who saw the
	// page's list of both.
	if tabs[0].listed != 2 {
		t.Errorf("tab1: the page listed %d matches, want 2", tabs[0].listed)
	}
	for _, tb := range tabs {
		if got := tb.state(t).Match; got != tb.want {
			t.Errorf("%s: the game asked for match %q, want %q", tb.name, got, tb.want)
		}
	}
	lctx, lcancel := context.WithTimeout(ctx, browserWait)
	ms, err := client.ListMatches(lctx, base)
	lcancel()
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 2 || ms[0].Players != 5 || ms[0].Spectators != 1 || ms[1].Players != 5 || ms[1].Spectators != 0 {
		t.Errorf("GET /matches: %+v; want match 1 with 5 players (4 bots, headless) and a spectator (tab2), match 2 with 5 (4 bots, tab1)", ms)
	}
	if !tabs[1].state(t).Spectating || tabs[0].state(t).Spectating {
		t.Errorf("tab2 (the watch button) spectating %v, tab1 %v; want true, false", tabs[1].state(t).Spectating, tabs[0].state(t).Spectating)
	}

	// 5. A screenshot of a playing tab: the viewport's size, and a picture.
	shot := screenshot(t, tabs[0])

	// 6. Freeze the other tab, as a hidden or throttled tab is, then wake it:
	// it stops drawing and decoding, then decodes again, still in sync.
	frozen := freezeAndWake(t, tabs[1])

	// The headless native client played all along, in sync.
	hs := headless.stop(t)
	t.Logf("headless client: decoded %d, verified %d, matched %d, mismatched %d", hs.Decoded, hs.Verified, hs.Matched, hs.Mismatched)
	if hs.Mismatched != 0 || hs.Verified == 0 || hs.Matched != hs.Verified {
		t.Errorf("headless client: %+v", hs.ClientStats)
	}

	// Nothing went wrong in either page all along.
	for _, tb := range tabs {
		st := tb.state(t)
		if bad := st.problems(wantDecoded); len(bad) > 0 {
			t.Errorf("%s at the end: %s\n  (%s)", tb.name, strings.Join(bad, "; "), st)
		}
		if p := tb.problems(); len(p) > 0 {
			t.Errorf("%s: page errors:\n  %s", tb.name, strings.Join(p, "\n  "))
		}
	}

	// 7. The figures for the README.
	for _, tb := range tabs {
		st := tb.state(t)
		lt, err := tb.longTasks()
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("figure %s: from navigation: game.wasm running at %.0f ms, connected at %.0f ms, first snapshot at %.0f ms (window.sightline: started %.0f, connectedMs %.0f, firstSnapshotMs %.0f); %d snapshots %v after navigating",
			tb.name, st.Started, st.ConnectedAt, st.FirstSnapshotMs, st.Started, st.ConnectedMs, st.FirstSnapshotMs, wantDecoded, tb.decodedAfter.Round(100*time.Millisecond))
		t.Logf("figure %s: longest main-thread tasks: %s", tb.name, formatTasks(lt, 5))
	}
	t.Logf("figure game.wasm: %d bytes raw (%.1f MB), %d bytes gzip (%.1f MB, %.0f%%), X-Uncompressed-Length %d",
		sizes.raw, mb(sizes.raw), sizes.gzip, mb(sizes.gzip), 100*float64(sizes.gzip)/float64(sizes.raw), sizes.uncompressed)
	t.Logf("figure freeze: %d frames in the second before; %v frozen: %d frames and %d snapshots decoded; after waking %d snapshots (backlog included) in %v, 30 more by %v",
		frozen.framesBefore, freezeFor, frozen.frames, frozen.decodedWhileFrozen, frozen.resumed, frozen.resumeTook.Round(100*time.Millisecond), frozen.liveTook.Round(100*time.Millisecond))
	t.Logf("figure screenshot: %dx%d, %d colors, %s", viewW, viewH, shot.colors, shot.path)
	t.Logf("total %v", time.Since(began).Round(100*time.Millisecond))
}

// requireChromium returns Chromium's path, installing the Debian package
// when it is missing and the test runs as root.
func requireChromium(t testing.TB) string {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err == nil {
		return chromiumPath
	}
	const install = "apt-get update && apt-get install -y chromium"
	if os.Geteuid() != 0 {
		t.Fatalf("Chromium is missing at %s: install it with `sudo %s` (or `make deps` as root)", chromiumPath, install)
	}
	t.Logf("Chromium is missing at %s: installing it (%s)", chromiumPath, install)
	cmd := exec.Command("sh", "-c", "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("install Chromium: %v\n%s", err, out)
	}
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("Chromium installed but not at %s: %v", chromiumPath, err)
	}
	return chromiumPath
}

// goCommand returns the go tool that runs this test.
func goCommand(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	goroot := os.Getenv("GOROOT") // go test sets it
	if goroot == "" {
		goroot = "/usr/local/go"
	}
	p := filepath.Join(goroot, "bin", "go")
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("no go tool on PATH nor at %s", p)
	}
	return p
}

func goEnv(t *testing.T, goTool, name string) string {
	t.Helper()
	out, err := exec.Command(goTool, "env", name).Output()
	if err != nil {
		t.Fatalf("go env %s: %v", name, err)
	}
	return strings.TrimSpace(string(out))
}

// run runs the go tool with extra environment variables.
func run(goTool string, env []string, args ...string) error {
	cmd := exec.Command(goTool, args...)
	cmd.Env = append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s go %s: %v\n%s", strings.Join(env, " "), strings.Join(args, " "), err, out)
	}
	return nil
}

// lockedBuffer is a buffer a program or a logger writes while the test reads it.
type lockedBuffer = testnet.LockedBuffer

// startServer runs the dedicated server with bots and verification, serving
// the browser build in web, with the extra flags, and returns its base URL
// once it is healthy. On failure the test prints the server's log.
func startServer(t testing.TB, exe, web string, extra ...string) string {
	t.Helper()
	return startServerWith(t, "http", http.DefaultClient, exe, web, extra...)
}

// startServerWith starts the server as startServer does and returns its
// base URL with scheme (https for a server given -tls-cert), asking for
// its health through hc.
func startServerWith(t testing.TB, scheme string, hc *http.Client, exe, web string, extra ...string) string {
	t.Helper()
	return startServerOn(t, "127.0.0.1", scheme, hc, exe, web, extra...)
}

// startServerOn starts the server as startServerWith does, listening on
// host (an IPv4 address) rather than loopback.
func startServerOn(t testing.TB, host, scheme string, hc *http.Client, exe, web string, extra ...string) string {
	t.Helper()
	httpPort, udpPort := testnet.FreePort(t, "tcp"), testnet.FreePort(t, "udp")
	base := fmt.Sprintf("%s://%s:%d", scheme, host, httpPort)
	logs := new(lockedBuffer)
	// No counters on the HTTP port + 1 (the default), which another
	// test's program may hold: these tests read none.
	args := []string{"-addr", fmt.Sprintf("%s:%d", host, httpPort), "-udp-port", strconv.Itoa(udpPort), "-bots", "4", "-verify", "-web", web,
		"-timeout", clientTimeout.String(), "-connect-timeout", connectTimeout.String(), "-metrics-addr", "off"}
	srv := exec.Command(exe, append(args, extra...)...)
	srv.Stdout, srv.Stderr = logs, logs
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		srv.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { srv.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			srv.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("server log:\n%s", logs.String())
		}
	})
	deadline := time.Now().Add(browserWait)
	for {
		resp, err := hc.Get(base + "/healthz")
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

type servedSizes struct {
	raw, gzip    int // Content-Length without and with Accept-Encoding: gzip
	uncompressed int // X-Uncompressed-Length
	gunzipped    int // the gzipped body, decompressed
}

// wasmSizes requests game.wasm without and with gzip, as a browser does.
func wasmSizes(t *testing.T, url string) servedSizes {
	t.Helper()
	// DisableCompression: the transport neither asks for gzip nor unpacks it.
	hc := &http.Client{Transport: &http.Transport{DisableCompression: true}, Timeout: browserWait}
	get := func(acceptGzip bool) (*http.Response, []byte) {
		req, err := http.NewRequest(http.MethodGet, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		if acceptGzip {
			req.Header.Set("Accept-Encoding", "gzip")
		}
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != http.StatusOK || resp.ContentLength != int64(len(body)) {
			t.Fatalf("GET %s (gzip %v): %s, Content-Length %d, %d bytes, %v", url, acceptGzip, resp.Status, resp.ContentLength, len(body), err)
		}
		return resp, body
	}
	var s servedSizes
	resp, _ := get(false)
	s.raw = int(resp.ContentLength)
	if enc := resp.Header.Get("Content-Encoding"); enc != "" {
		t.Fatalf("game.wasm without Accept-Encoding came with Content-Encoding %q", enc)
	}
	resp, gz := get(true)
	s.gzip = int(resp.ContentLength)
	if enc := resp.Header.Get("Content-Encoding"); enc != "gzip" {
		t.Fatalf("game.wasm with Accept-Encoding: gzip came with Content-Encoding %q", enc)
	}
	s.uncompressed, _ = strconv.Atoi(resp.Header.Get("X-Uncompressed-Length"))
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, zr)
	if err != nil {
		t.Fatalf("gunzip game.wasm: %v", err)
	}
	s.gunzipped = int(n)
	return s
}

func mb(n int) float64 { return float64(n) / (1 << 20) }

// startBrowser launches Chromium with a fresh profile and returns a context
// of its first tab; new tabs derive from it.
func startBrowser(t testing.TB, ctx context.Context, chromium string, extra ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	profile, err := os.MkdirTemp("", "sightline-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// Chromium's helpers can write into the profile for a moment
		// after the browser exits: retry.
		for range 50 {
			if err = os.RemoveAll(profile); err == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Logf("remove the profile: %v", err)
	})
	out := new(lockedBuffer)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(viewW, viewH),
		chromedp.NoSandbox,
		chromedp.DisableGPU, // --disable-gpu --enable-unsafe-swiftshader: WebGL2 from SwiftShader
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-sync", true),
		chromedp.CombinedOutput(out),
	)
	opts = append(opts, extra...)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	browserCtx, cancelBrowser := chromedp.NewContext(allocCtx)
	t.Cleanup(func() {
		cancelBrowser()
		cancelAlloc()
		if t.Failed() {
			// Without a D-Bus, Chromium complains at length: leave that out.
			var lines []string
			for line := range strings.Lines(out.String()) {
				if !strings.Contains(line, "dbus/") {
					lines = append(lines, line)
				}
			}
			t.Logf("chromium output (D-Bus errors left out):\n%s", strings.Join(lines, ""))
		}
	})
	// The first Run starts the browser; it must not carry a short timeout.
	if err := chromedp.Do(browserCtx); err != nil {
		t.Fatalf("start Chromium: %v\n%s", err, out.String())
	}
	return browserCtx
}

// tab is one page of the browser, with what its console said.
type tab struct {
	name string
	ctx  context.Context

	mu      sync.Mutex
	console []string // every console call, exception and log entry
	errs    []string // the exceptions, console errors and error log entries

	loadErr      error
	decodedAfter time.Duration // from navigation until wantDecoded snapshots

	// query is added to the page's address; pick, if set, is the match
	// chosen from the page's list (listed: how many it listed), with its
	// watch button when watch is set, and want the match the game then
	// asks for ("" if none).
	query, pick, want string
	watch             bool
	listed            int
}

func newTab(t testing.TB, browser context.Context, name string) *tab {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser)
	tb := &tab{name: name, ctx: ctx}
	t.Cleanup(cancel)
	if err := chromedp.Listen(ctx, tb.event); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	// On failure, show what the page knew and said (runs before the tab closes).
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		ctx, cancel := context.WithTimeout(tb.ctx, 30*time.Second)
		defer cancel()
		js, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.title + "\n" + JSON.stringify(window.sightline)`))
		t.Logf("%s: window.sightline (%v):\n%s", name, err, js)
		lt, err := tb.longTasks()
		t.Logf("%s: long tasks (%v): %s", name, err, formatTasks(lt, 20))
		tb.mu.Lock()
		defer tb.mu.Unlock()
		t.Logf("%s: console (%d):\n  %s", name, len(tb.console), strings.Join(tb.console, "\n  "))
	})
	return tb
}

// event records the console calls, exceptions and log entries of the page.
// It runs on chromedp's reading goroutine: it must be quick.
func (tb *tab) event(ev any) {
	var line string
	var problem bool
	switch e := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		args := make([]string, len(e.Args))
		for i, a := range e.Args {
			args[i] = remoteString(a)
		}
		text := strings.Join(args, " ")
		line = fmt.Sprintf("console.%s: %s", e.Type, text)
		// The Go runtime writes a panic to stderr, which wasm_exec.js logs.
		problem = e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeAssert ||
			strings.Contains(text, "panic:") || strings.Contains(text, "fatal error:")
	case *runtime.EventExceptionThrown:
		line = "exception: " + (&chromedp.ExceptionError{ExceptionDetails: e.ExceptionDetails}).Error()
		problem = true
	case *cdplog.EventEntryAdded:
		line = fmt.Sprintf("log %s %s: %s %s", e.Entry.Source, e.Entry.Level, e.Entry.Text, e.Entry.URL)
		// The browser asks for /favicon.ico on its own; the page has none.
		// A page on plain http asks for game.wasm.lzma, which a server may
		// not have (the page then takes game.wasm, and the tests check
		// which it took).
		problem = e.Entry.Level == cdplog.EntryLevelError && !strings.HasSuffix(e.Entry.URL, "/favicon.ico") &&
			!strings.HasSuffix(e.Entry.URL, "/game.wasm.lzma")
	default:
		return
	}
	line = time.Now().Format("15:04:05.000 ") + line
	tb.mu.Lock()
	defer tb.mu.Unlock()
	tb.console = append(tb.console, line)
	if problem {
		tb.errs = append(tb.errs, line)
	}
}

func remoteString(a *runtime.RemoteObject) string {
	if a == nil {
		return "<nil>"
	}
	if len(a.Value) > 0 {
		var s string
		if json.Unmarshal(a.Value, &s) == nil {
			return s
		}
		return string(a.Value)
	}
	if a.UnserializableValue != "" {
		return string(a.UnserializableValue)
	}
	if a.Description != "" {
		return a.Description
	}
	return string(a.Type)
}

func (tb *tab) problems() []string {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return append([]string(nil), tb.errs...)
}

// load opens the page and waits until the game connected and decoded
// wantDecoded snapshots (or reported a problem).
// pageFPS is the frames a second the tests' pages draw at most (?fps=):
// what they check is what the frames show, not how many there are, and
// drawing in software takes most of the suite's CPU. SIGHTLINE_BROWSER_FPS
// sets another cap (0: none, as a player's page).
const pageFPS = 20

// testFPS adds the tests' frame cap to a page's address, unless it names
// one.
func testFPS(pageURL string) string {
	fps := strconv.Itoa(pageFPS)
	if v, ok := os.LookupEnv("SIGHTLINE_BROWSER_FPS"); ok {
		fps = v
	}
	u, err := url.Parse(pageURL)
	if err != nil || fps == "0" || u.Query().Has("fps") {
		return pageURL
	}
	q := u.Query()
	q.Set("fps", fps)
	u.RawQuery = q.Encode()
	return u.String()
}

func (tb *tab) load(url string) error {
	ctx, cancel := context.WithTimeout(tb.ctx, browserWait+10*time.Second)
	defer cancel()
	// Record the page's long main-thread tasks: a game that stops polling
	// for seconds shows here.
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: instrumentJS}); err != nil {
		return err
	}
	start := time.Now()
	url = testFPS(url)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(viewW, viewH), chromedp.Navigate(url)); err != nil {
		return fmt.Errorf("open %s: %w", url, err)
	}
	if tb.pick != "" {
		// The page lists the server's matches while the game downloads:
		// click the one to join, as a player would.
		n, err := chromedp.Run(ctx, chromedp.Poll[int](`document.querySelectorAll("#matchRows button[data-id]").length || false`,
			chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(browserWait)))
		if err != nil {
			return fmt.Errorf("waiting for the page's list of matches: %w", err)
		}
		tb.listed = n
		button := `#matchRows button[data-id="` + tb.pick + `"]`
		if tb.watch {
			button = `#matchRows button[data-watch="` + tb.pick + `"]`
		}
		// The page redraws its list of matches as the server's changes:
		// find the button and click it in one step of the page's own, so
		// that a redraw between the two cannot take the node away.
		click := fmt.Sprintf(`(b => b ? (b.click(), true) : false)(document.querySelector(%q))`, button)
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](click,
			chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(browserWait))); err != nil {
			return fmt.Errorf("choosing match %s: %w", tb.pick, err)
		}
		tb.want = tb.pick
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](
		fmt.Sprintf(`window.sightline.decoded >= %d || window.sightline.errors.length > 0 || window.sightline.closed === true`, wantDecoded),
		chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(browserWait))); err != nil {
		return fmt.Errorf("waiting %v for %d snapshots: %w", browserWait, wantDecoded, err)
	}
	tb.decodedAfter = time.Since(start)
	return nil
}

// instrumentJS runs in the page before the page's own script. It keeps
// [start, duration] in ms of every main-thread task longer than 50 ms (a
// game that stops polling for seconds shows there), and the page's time
// when the game sets window.sightline.connectedMs, right after it connected.
const instrumentJS = `window.browsertestLongTasks = [];
try {
	new PerformanceObserver((list) => {
		for (const e of list.getEntries()) window.browsertestLongTasks.push([Math.round(e.startTime), Math.round(e.duration)]);
	}).observe({type: "longtask", buffered: true});
} catch (e) {}
(() => {
	let page;
	Object.defineProperty(window, "sightline", {
		configurable: true,
		get() { return page; },
		set(v) {
			page = v;
			let ms = v.connectedMs;
			Object.defineProperty(v, "connectedMs", {
				configurable: true, enumerable: true,
				get() { return ms; },
				set(x) {
					ms = x;
					if (window.browsertestConnectedAt === undefined) window.browsertestConnectedAt = performance.now();
				},
			});
		},
	});
})();`

// longTasks returns the page's long tasks, longest first, as "duration at start".
func (tb *tab) longTasks() ([][2]float64, error) {
	ctx, cancel := context.WithTimeout(tb.ctx, browserWait)
	defer cancel()
	lt, err := chromedp.Run(ctx, chromedp.Evaluate[[][2]float64](`window.browsertestLongTasks`))
	slices.SortFunc(lt, func(a, b [2]float64) int { return cmp.Compare(b[1], a[1]) })
	return lt, err
}

func formatTasks(lt [][2]float64, n int) string {
	var b strings.Builder
	for i, x := range lt {
		if i == n {
			fmt.Fprintf(&b, "… (%d in all)", len(lt))
			break
		}
		fmt.Fprintf(&b, "%.0f ms at %.0f ms; ", x[1], x[0])
	}
	return b.String()
}

// pageState is window.sightline.
type pageState struct {
	Decoded         uint64   `json:"decoded"`
	Verified        uint64   `json:"verified"`
	Matched         uint64   `json:"matched"`
	Mismatched      uint64   `json:"mismatched"`
	Undecodable     uint64   `json:"undecodable"`
	Bytes           uint64   `json:"bytes"`
	Started         float64  `json:"started"`
	ConnectedMs     float64  `json:"connectedMs"`
	FirstSnapshotMs float64  `json:"firstSnapshotMs"`
	Match           string   `json:"match"` // the match the game asked for
	Spectating      bool     `json:"spectating"`
	Closed          bool     `json:"closed"`
	Errors          []string `json:"errors"`

	// Set by instrumentJS, not by the game: when the game set connectedMs.
	ConnectedAt float64 `json:"connectedAt"`
}

func (s pageState) String() string {
	return fmt.Sprintf("decoded %d, verified %d, matched %d, mismatched %d, undecodable %d, %d bytes, closed %v, errors %q",
		s.Decoded, s.Verified, s.Matched, s.Mismatched, s.Undecodable, s.Bytes, s.Closed, s.Errors)
}

// problems says what is wrong with a page that should have decoded at
// least decoded snapshots, all verified alike.
func (s pageState) problems(decoded uint64) []string {
	var bad []string
	if s.Closed {
		bad = append(bad, "the connection closed (did the server drop the player? see its log)")
	}
	if len(s.Errors) > 0 {
		bad = append(bad, fmt.Sprintf("the page has errors %q", s.Errors))
	}
	if s.Decoded < decoded {
		bad = append(bad, fmt.Sprintf("decoded %d snapshots, want %d", s.Decoded, decoded))
	}
	if s.Mismatched != 0 {
		bad = append(bad, fmt.Sprintf("%d ticks differ from the server's", s.Mismatched))
	}
	if s.Verified == 0 {
		bad = append(bad, "no tick verified")
	}
	if s.Matched != s.Verified {
		bad = append(bad, fmt.Sprintf("%d of %d verified ticks matched", s.Matched, s.Verified))
	}
	return bad
}

func (tb *tab) state(t *testing.T) pageState {
	t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, browserWait)
	defer cancel()
	st, err := chromedp.Run(ctx, chromedp.Evaluate[pageState](`({...window.sightline, connectedAt: window.browsertestConnectedAt})`))
	if err != nil {
		t.Fatalf("%s: read window.sightline: %v", tb.name, err)
	}
	return st
}

type shot struct {
	path   string
	colors int
}

// screenshot captures the tab, checks it is a picture of the viewport, and
// saves it (also to $SIGHTLINE_BROWSER_SCREENSHOT when set).
func screenshot(t *testing.T, tb *tab) shot {
	t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, browserWait)
	defer cancel()
	buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("%s: screenshot: %v", tb.name, err)
	}
	s := shot{path: filepath.Join(t.TempDir(), "browser.png")}
	if err := os.WriteFile(s.path, buf, 0o644); err != nil {
		t.Fatal(err)
	}
	if p := os.Getenv("SIGHTLINE_BROWSER_SCREENSHOT"); p != "" {
		if !filepath.IsAbs(p) {
			// go test runs in the package's directory; the path is the module's.
			p = filepath.Join(moduleRoot(t), p)
		}
		if err := os.WriteFile(p, buf, 0o644); err != nil {
			t.Fatalf("SIGHTLINE_BROWSER_SCREENSHOT: %v", err)
		}
		s.path = p
	}
	img, err := png.Decode(bytes.NewReader(buf))
	if err != nil {
		t.Fatalf("%s: screenshot is no PNG: %v", tb.name, err)
	}
	if b := img.Bounds(); b != image.Rect(0, 0, viewW, viewH) {
		t.Errorf("%s: screenshot is %v, want %dx%d", tb.name, b, viewW, viewH)
	}
	colors := make(map[[4]uint32]struct{})
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, a := img.At(x, y).RGBA()
			colors[[4]uint32{r, g, bl, a}] = struct{}{}
		}
	}
	s.colors = len(colors)
	if s.colors <= 200 {
		t.Errorf("%s: screenshot has %d colors: blank? (saved at %s)", tb.name, s.colors, s.path)
	}
	return s
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	gomod := goEnv(t, goCommand(t), "GOMOD")
	if gomod == "" || gomod == os.DevNull {
		t.Fatal("not in a module")
	}
	return filepath.Dir(gomod)
}

type frozenResult struct {
	framesBefore       int // animation frames in the second before the freeze
	frames             int // and while frozen
	decodedWhileFrozen uint64
	resumed            uint64        // snapshots decoded after waking, backlog included
	resumeTook         time.Duration // until 30 more were decoded
	liveTook           time.Duration // until 30 more beyond those
}

// freezeAndWake freezes the tab's page for freezeFor (no frames, timers nor
// tasks: what a hidden, throttled tab gets at worst short of being
// discarded), wakes it, and checks that it decodes again, in sync, still
// connected.
func freezeAndWake(t *testing.T, tb *tab) frozenResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, freezeFor+browserWait)
	defer cancel()
	// Count the page's animation frames.
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](
		`window.browsertestFrames = 0; (function f() { window.browsertestFrames++; requestAnimationFrame(f) })()`)); err != nil {
		t.Fatalf("%s: %v", tb.name, err)
	}
	type counts struct {
		Frames  int    `json:"frames"`
		Decoded uint64 `json:"decoded"`
	}
	read := func(what string) counts {
		c, err := chromedp.Run(ctx, chromedp.Evaluate[counts](`({frames: window.browsertestFrames, decoded: window.sightline.decoded})`))
		if err != nil {
			t.Fatalf("%s: read the page %s: %v", tb.name, what, err)
		}
		return c
	}
	lifecycle := func(state page.SetWebLifecycleStateState) {
		if _, err := chromedp.Call(ctx, page.SetWebLifecycleState, page.SetWebLifecycleStateParams{State: state}); err != nil {
			t.Fatalf("%s: set the page %s: %v", tb.name, state, err)
		}
	}
	start := read("before the freeze")
	time.Sleep(time.Second)
	before := read("before the freeze")
	lifecycle(page.SetWebLifecycleStateStateFrozen)
	// DevTools still evaluates in a frozen page; the page's own tasks,
	// timers and frames wait. Counted from once the freeze has answered:
	// on a busy machine the page's frames in the meantime (its task under
	// way, and those queued behind it) were drawn before it.
	frozen := read("once frozen")
	time.Sleep(freezeFor)
	during := read("while frozen")
	lifecycle(page.SetWebLifecycleStateStateActive)
	woke := time.Now()
	r := frozenResult{
		framesBefore:       before.Frames - start.Frames,
		frames:             during.Frames - frozen.Frames,
		decodedWhileFrozen: during.Decoded - frozen.Decoded,
	}
	t.Logf("%s: %d frames in the second before the freeze, %d until it answered; frozen %v: frames %d -> %d, decoded %d -> %d",
		tb.name, r.framesBefore, frozen.Frames-before.Frames, freezeFor, frozen.Frames, during.Frames, frozen.Decoded, during.Decoded)
	// One frame may have been under way when the freeze came.
	if r.frames > 1 {
		t.Errorf("%s: drew %d frames while frozen: the freeze did not stop the page", tb.name, r.frames)
	}

	// Decoding resumes (the snapshots that queued up while frozen count),
	// then goes on with new ones: the player is still in the match.
	const resumeWait = browserWait
	waitDecoded := func(want uint64) {
		left := resumeWait - time.Since(woke)
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](
			fmt.Sprintf(`window.sightline.decoded >= %d || window.sightline.errors.length > 0 || window.sightline.closed === true`, want),
			chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(left))); err != nil {
			t.Fatalf("%s: after waking, decoded did not reach %d in %v: %v", tb.name, want, resumeWait, err)
		}
	}
	waitDecoded(during.Decoded + 30)
	r.resumeTook = time.Since(woke)
	st := tb.state(t)
	r.resumed = st.Decoded - during.Decoded
	waitDecoded(st.Decoded + 30)
	r.liveTook = time.Since(woke)
	st = tb.state(t)
	t.Logf("%s: after waking: %s", tb.name, st)
	if bad := st.problems(wantDecoded); len(bad) > 0 {
		t.Errorf("%s: after waking: %s\n  (%s)", tb.name, strings.Join(bad, "; "), st)
	}
	return r
}

// headlessPlayer is the native client playing next to the tabs.
type headlessPlayer struct {
	stopPlay context.CancelFunc
	done     chan struct{}
	logs     *lockedBuffer
	c        *client.Client
	err      error
}

// startHeadless connects a desktop-protocol client at once to the server's
// match (empty: the server chooses) and plays until stop; the dial runs in
// the background, alongside the tabs' loading.
func startHeadless(t *testing.T, ctx context.Context, base, match string) *headlessPlayer {
	t.Helper()
	logs := new(lockedBuffer)
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
	playCtx, stop := context.WithCancel(ctx)
	h := &headlessPlayer{stopPlay: stop, done: make(chan struct{}), logs: logs}
	go func() {
		defer close(h.done)
		dctx, cancel := context.WithTimeout(playCtx, browserWait)
		c, err := client.Dial(dctx, base, client.Config{Verify: true, Name: "headless", Logger: log, Match: match}, webrtc.DialConfig{Logger: log})
		cancel()
		if err != nil {
			h.err = err
			return
		}
		h.c = c
		w := brain.NewWanderer(7)
		if err := c.Run(playCtx, protocol.DefaultTickRate, func(uint32) arena.Input { return w.Next() }); err != nil {
			h.err = fmt.Errorf("playing: %w", err)
		}
	}()
	t.Cleanup(func() {
		stop()
		<-h.done
		if h.c != nil {
			h.c.Close()
		}
		if t.Failed() {
			t.Logf("headless client log:\n%s", logs.String())
		}
	})
	return h
}

// stop ends the headless client's play and returns its counters.
func (h *headlessPlayer) stop(t *testing.T) client.Stats {
	t.Helper()
	h.stopPlay()
	<-h.done
	if h.err != nil {
		t.Fatalf("headless client: %v", h.err)
	}
	return h.c.Stats()
}
