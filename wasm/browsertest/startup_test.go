package browsertest

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/sightline-game/sightline/game/web"
	"github.com/sightline-game/sightline/internal/figures"
)

// wasmBrotliBar is the most game.wasm may weigh on the wire in brotli:
// 3.0 MB, counted in millions of bytes (the stricter reading).
const wasmBrotliBar = 3_000_000

// blankFrames is how many frames the page's ?blank= run draws nothing: far
// more than the start takes, so that it never draws.
const blankFrames = 1_000_000

// The browser build starts fast and is served well: the server sends
// game.wasm, wasm_exec.js and the page in brotli when asked (gzip
// otherwise), the page compiles while it downloads with an honest progress
// bar and begins the connection meanwhile (which the game then takes), and each phase of the start, from navigation to the first frame
// with the world, is measured and in order. A second run draws nothing
// (?blank=), to show what software WebGL costs the start.
func TestBrowserStartup(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the WebAssembly client and the server, and runs Chromium")
	}
	chromium := requireChromium(t)
	began := time.Now()
	dir := t.TempDir()
	webDir := filepath.Join(dir, "web")
	serverExe := filepath.Join(dir, "server")
	buildWeb(t, webDir, serverExe, true)
	t.Logf("built and precompressed in %v", time.Since(began).Round(100*time.Millisecond))
	base := startServer(t, serverExe, webDir)

	// What a server started like `make serve` sends.
	wire := checkEncodings(t, base, webDir)
	br := wire["/game.wasm"][web.Brotli]
	if br > wasmBrotliBar {
		t.Errorf("game.wasm is %d bytes in brotli: over the %d-byte bar by %d bytes", br, wasmBrotliBar, br-wasmBrotliBar)
	} else {
		t.Logf("figure bar: game.wasm is %d bytes in brotli, within the %d-byte bar", br, wasmBrotliBar)
	}
	for _, path := range []string{"/game.wasm", "/wasm_exec.js", "/"} {
		w := wire[path]
		t.Logf("figure compression %s: raw %d, gzip %d (%.1f%%), brotli %d (%.1f%%)", path, w[web.Identity],
			w[web.Gzip], 100*float64(w[web.Gzip])/float64(w[web.Identity]), w[web.Brotli], 100*float64(w[web.Brotli])/float64(w[web.Identity]))
	}
	checkSizesAsInFigures(t, wire, packedSize(t, base))

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	t.Cleanup(cancel)
	browser := startBrowser(t, ctx, chromium)

	// One tab at a time, so that each has the machine to itself.
	normal := loadStartup(t, newTab(t, browser, "startup"), base+"/?name=startup", true)
	logPhases(t, "first visit", normal)
	checkPhases(t, normal, wire["/game.wasm"][web.Brotli], wire["/game.wasm"][web.Identity])
	again := loadStartup(t, newTab(t, browser, "again"), base+"/?name=again", true)
	logPhases(t, "second visit (cached: 304)", again)
	blank := loadStartup(t, newTab(t, browser, "blank"), base+"/?name=blank&blank="+strconv.Itoa(blankFrames), false)
	logPhases(t, "drawing nothing (?blank=)", blank)
	// The connection each page began beside the download is the one its
	// game went on with: otherwise the game began its own, later.
	for _, p := range []struct {
		visit string
		p     phases
	}{{"first visit", normal}, {"second visit", again}, {"drawing nothing", blank}} {
		if p.p.Prepared != "taken" {
			t.Errorf("%s: the connection the page began was not taken: %s", p.visit, p.p.Prepared)
		}
	}
	t.Logf("figure drawing: first snapshot %.0f ms after the channels opened when drawing, %.0f ms when drawing nothing; "+
		"first frame with the world: its task took %.0f ms (Go's Draw %.0f ms of it), shown %.0f ms after the first snapshot",
		normal.FirstSnapshotMs-normal.ConnectedMs, blank.FirstSnapshotMs-blank.ConnectedMs,
		normal.worldTask, normal.FirstWorldDrawGoMs, normal.FirstWorldFrameMs-normal.FirstSnapshotMs)
	t.Logf("total %v", time.Since(began).Round(100*time.Millisecond))
}

// webBuilt is the browser build and the server that buildWeb made first,
// kept for the package's later tests: the build is the same for all (a
// link of game.wasm takes most of a minute on a busy machine), and brotli
// at quality 11 of game.wasm takes half a minute on a quiet machine and
// minutes on a busy one, so it begins in the background as soon as the
// build is made, while the tests that do not need it run. TestMain stops
// it and removes the build.
var webBuilt struct {
	sync.Mutex
	dir string // web/ and server; "" until made
	// compressing is closed once the .br and .gz are in web/, or failed
	// (compressErr); compressLog is what precompress printed.
	compressing  chan struct{}
	compressLog  string
	compressErr  error
	stopCompress context.CancelFunc
}

func TestMain(m *testing.M) {
	code := m.Run()
	if webBuilt.stopCompress != nil {
		webBuilt.stopCompress()
		<-webBuilt.compressing
	}
	if webBuilt.dir != "" {
		os.RemoveAll(webBuilt.dir)
	}
	os.Exit(code)
}

// buildWeb puts the browser client into webDir and the server at
// serverExe, building them the first time it is called: game.wasm and
// wasm_exec.js as `make web` builds them and, when compressed, their .br
// and .gz beside them and game.wasm.lzma (waiting for them if they are still being made).
// Without compressed, webDir holds no .br or .gz and the server
// compresses what it sends itself.
func buildWeb(t *testing.T, webDir, serverExe string, compressed bool) {
	t.Helper()
	webBuilt.Lock()
	defer webBuilt.Unlock()
	if webBuilt.dir == "" {
		dir, err := os.MkdirTemp("", "browsertest-web-")
		if err != nil {
			t.Fatal(err)
		}
		made := false
		defer func() {
			if !made {
				os.RemoveAll(dir)
			}
		}()
		buildWebInto(t, filepath.Join(dir, "web"), filepath.Join(dir, "server"))
		startPrecompress(t, filepath.Join(dir, "web"))
		made, webBuilt.dir = true, dir
	}
	shared := filepath.Join(webBuilt.dir, "web")
	if compressed {
		began := time.Now()
		<-webBuilt.compressing
		if webBuilt.compressErr != nil {
			t.Fatal(webBuilt.compressErr)
		}
		t.Logf("waited %v for %s", time.Since(began).Round(100*time.Millisecond), webBuilt.compressLog)
	}
	if err := os.MkdirAll(webDir, 0o755); err != nil {
		t.Fatal(err)
	}
	names := []string{web.WasmFile, web.ExecFile}
	if compressed {
		names = append(names, web.WasmFile+web.LZMASuffix)
		for _, name := range []string{web.WasmFile, web.ExecFile} {
			for _, e := range web.Compressed {
				names = append(names, name+e.Suffix())
			}
		}
	}
	for _, name := range names {
		linkOrCopy(t, filepath.Join(shared, name), filepath.Join(webDir, name))
	}
	linkOrCopy(t, filepath.Join(webBuilt.dir, "server"), serverExe)
}

// linkOrCopy makes to the file from: a hard link, or a copy where the two
// are on different file systems.
func linkOrCopy(t *testing.T, from, to string) {
	t.Helper()
	if os.Link(from, to) == nil {
		return
	}
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, info.Mode().Perm()); err != nil {
		t.Fatal(err)
	}
}

// buildWebInto builds the browser client into webDir as `make web` does
// (game.wasm and wasm_exec.js, without their .br and .gz) and the server
// into serverExe.
func buildWebInto(t *testing.T, webDir, serverExe string) {
	t.Helper()
	if err := os.MkdirAll(webDir, 0o755); err != nil {
		t.Fatal(err)
	}
	goTool := goCommand(t)
	var wg sync.WaitGroup
	var wasmErr, serverErr error
	wg.Go(func() {
		// GOFLAGS cleared (make test sets -trimpath in it): the go command
		// records GOFLAGS in the binary, and game.wasm must be the very
		// bytes `make web` builds, whose sizes docs/figures.md holds.
		wasmErr = run(goTool, []string{"GOOS=js", "GOARCH=wasm", "GOFLAGS="},
			"build", "-trimpath", "-ldflags=-s -w", "-o", filepath.Join(webDir, web.WasmFile), "github.com/sightline-game/sightline/wasm")
	})
	wg.Go(func() {
		serverErr = run(goTool, nil, "build", "-o", serverExe, "github.com/sightline-game/sightline/cmd/server")
	})
	wg.Wait()
	if err := errors.Join(wasmErr, serverErr); err != nil {
		t.Fatal(err)
	}
	execJS, err := os.ReadFile(filepath.Join(goEnv(t, goTool, "GOROOT"), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(webDir, web.ExecFile), execJS, 0o644); err != nil {
		t.Fatal(err)
	}
}

// startPrecompress begins writing the .br and .gz of webDir's game.wasm
// and wasm_exec.js beside them as `make web` does, in the background
// (webBuilt.compressing). Those of the module's out/web are reused when
// they hold this very build (the build is reproducible), since brotli at
// quality 11 takes minutes.
func startPrecompress(t *testing.T, webDir string) {
	t.Helper()
	outWeb := filepath.Join(moduleRoot(t), "out", "web")
	goTool := goCommand(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	webBuilt.compressing, webBuilt.stopCompress = done, cancel
	go func() {
		defer close(done)
		start := time.Now()
		out, err := precompressWeb(ctx, goTool, outWeb, webDir)
		webBuilt.compressLog = fmt.Sprintf("precompress (%v, begun when the build was made):\n%s", time.Since(start).Round(100*time.Millisecond), out)
		webBuilt.compressErr = err
	}()
}

// precompressWeb builds cmd/precompress and runs it on webDir's files,
// after copying in those of outWeb (precompress keeps what already holds
// the file and redoes the rest), until ctx ends; it returns what
// precompress printed.
func precompressWeb(ctx context.Context, goTool, outWeb, webDir string) (string, error) {
	for _, name := range []string{web.WasmFile, web.ExecFile} {
		for _, suffix := range []string{web.Brotli.Suffix(), web.Gzip.Suffix(), web.LZMASuffix} {
			if b, err := os.ReadFile(filepath.Join(outWeb, name+suffix)); err == nil {
				if err := os.WriteFile(filepath.Join(webDir, name+suffix), b, 0o644); err != nil {
					return "", err
				}
			}
		}
	}
	exe := filepath.Join(filepath.Dir(webDir), "precompress")
	if _, err := goOutput(goTool, "build", "-o", exe, "github.com/sightline-game/sightline/cmd/precompress"); err != nil {
		return "", err
	}
	// At a lower priority (nice 10): it runs beside the tests, of this
	// package and of others, and should take what time they leave.
	args := []string{exe, filepath.Join(webDir, web.WasmFile), filepath.Join(webDir, web.ExecFile)}
	if nice, err := exec.LookPath("nice"); err == nil {
		args = append([]string{nice, "-n", "10"}, args...)
	}
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("precompress: %w\n%s", err, out.String())
	}
	return out.String(), nil
}

// goOutput runs the go tool and returns its output.
func goOutput(goTool string, args ...string) (string, error) {
	var out bytes.Buffer
	cmd := exec.Command(goTool, args...)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, out.String())
	}
	return out.String(), nil
}

// checkEncodings asks the server for each file as browsers and other
// clients do, checks the encoding and headers of each answer and that it
// decompresses to the built file, and returns the bytes on the wire of
// each file in each encoding.
func checkEncodings(t *testing.T, base, webDir string) map[string][web.Identity + 1]int {
	t.Helper()
	hc := &http.Client{Transport: &http.Transport{DisableCompression: true}, Timeout: browserWait}
	defer hc.CloseIdleConnections()
	wire := map[string][web.Identity + 1]int{}
	for _, f := range []struct{ path, file, contentType string }{
		{"/game.wasm", web.WasmFile, web.TypeWasm},
		{"/wasm_exec.js", web.ExecFile, web.TypeJS},
		{"/", "", web.TypeHTML},
	} {
		var raw []byte
		if f.file != "" {
			var err error
			if raw, err = os.ReadFile(filepath.Join(webDir, f.file)); err != nil {
				t.Fatal(err)
			}
		}
		var sizes [web.Identity + 1]int
		for _, c := range []struct {
			accept string
			want   web.Encoding
		}{
			{"", web.Identity}, // first: the page's raw bytes are known from this answer
			{"br", web.Brotli},
			{"gzip, deflate, br, zstd", web.Brotli}, // Chromium's
			{"gzip", web.Gzip},
			{"gzip, deflate", web.Gzip},
			{"br;q=0, gzip", web.Gzip},
		} {
			req, err := http.NewRequest(http.MethodGet, base+f.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			if c.accept != "" {
				req.Header.Set("Accept-Encoding", c.accept)
			}
			resp, err := hc.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			h := resp.Header
			wantCE := c.want.String()
			if c.want == web.Identity {
				wantCE = ""
			}
			if resp.StatusCode != 200 || h.Get("Content-Encoding") != wantCE || h.Get("Content-Type") != f.contentType ||
				h.Get("Vary") != "Accept-Encoding" || h.Get("ETag") == "" || resp.ContentLength != int64(len(body)) {
				t.Fatalf("GET %s, Accept-Encoding %q: %s, %d bytes, headers %v; want Content-Encoding %q",
					f.path, c.accept, resp.Status, len(body), h, wantCE)
			}
			if raw == nil && c.want == web.Identity {
				raw = body // the page is embedded in the server
			}
			if raw != nil {
				if err := web.Verify(c.want, body, raw); err != nil {
					t.Fatalf("GET %s, Accept-Encoding %q: the %v body %v", f.path, c.accept, c.want, err)
				}
			}
			if n, _ := strconv.Atoi(h.Get(web.UncompressedLengthHeader)); raw != nil && n != len(raw) {
				t.Fatalf("GET %s: %s %d, the file is %d bytes", f.path, web.UncompressedLengthHeader, n, len(raw))
			}
			sizes[c.want] = len(body)
		}
		for _, e := range web.Compressed {
			if sizes[e] == 0 || sizes[e] >= sizes[web.Identity] {
				t.Fatalf("%s: %v %d bytes, raw %d", f.path, e, sizes[e], sizes[web.Identity])
			}
		}
		t.Logf("%s on the wire: brotli %d bytes (%.2f MB), gzip %d (%.2f MB), raw %d (%.2f MB)", f.path,
			sizes[web.Brotli], mb(sizes[web.Brotli]), sizes[web.Gzip], mb(sizes[web.Gzip]), sizes[web.Identity], mb(sizes[web.Identity]))
		wire[f.path] = sizes
	}
	return wire
}

// phases are the start-up marks of window.sightline, in ms from navigation.
type phases struct {
	WasmResponseMs     float64 `json:"wasmResponseMs"`
	WasmFetchedMs      float64 `json:"wasmFetchedMs"`
	CompiledMs         float64 `json:"compiledMs"`
	InstantiatedMs     float64 `json:"instantiatedMs"`
	Started            float64 `json:"started"`
	GoMainMs           float64 `json:"goMainMs"`
	SetupMs            float64 `json:"setupMs"`
	SignallingMs       float64 `json:"signallingMs"`
	ConnectedMs        float64 `json:"connectedMs"`
	GameLoopMs         float64 `json:"gameLoopMs"`
	FirstSnapshotMs    float64 `json:"firstSnapshotMs"`
	FirstWorldDrawMs   float64 `json:"firstWorldDrawMs"`
	FirstWorldDrawGoMs float64 `json:"firstWorldDrawGoMs"`
	FirstWorldFrameMs  float64 `json:"firstWorldFrameMs"`

	WasmEncoding  string   `json:"wasmEncoding"`
	WasmWireBytes int      `json:"wasmWireBytes"`
	WasmBytes     int      `json:"wasmBytes"`
	Errors        []string `json:"errors"`

	// Read from the page, not the game.
	Prepared      string       `json:"prepared"` // what became of the connection the page began
	ProgressGot   int          `json:"progressGot"`
	Fill          string       `json:"fill"`
	LongTasks     [][2]float64 `json:"longTasks"`
	NavigationEnd float64      `json:"navigationEnd"` // the page's load event
	// Every answer the page got, with its bytes on the wire, and why the
	// page gave up the packed game (game.wasm.lzma) if it did.
	Resources   []resourceBytes `json:"resources"`
	PackedError string          `json:"packedError"`

	worldTask float64 // the long task that drew the first frame with the world, ms
}

// loadStartup opens url in tb and waits for the start: the first frame
// with the world when drawing, the first snapshot when not.
func loadStartup(t testing.TB, tb *tab, url string, drawing bool) phases {
	t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, browserWait+10*time.Second)
	defer cancel()
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: instrumentJS}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(viewW, viewH), chromedp.Navigate(url)); err != nil {
		t.Fatalf("%s: open %s: %v", tb.name, url, err)
	}
	done := "firstWorldFrameMs"
	if !drawing {
		done = "firstSnapshotMs"
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](
		fmt.Sprintf(`window.sightline.%s !== undefined || window.sightline.errors.length > 0 || window.sightline.closed === true`, done),
		chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(browserWait))); err != nil {
		t.Fatalf("%s: waiting %v for %s: %v", tb.name, browserWait, done, err)
	}
	if !drawing {
		// The game loop runs on for 30 animation frames; nothing may be
		// drawn. Counted in frames, not snapshots: a page that held its
		// main thread past the server's timeout still runs its frames.
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](
			`window.browsertestFrames = 0; (function f() { window.browsertestFrames++; requestAnimationFrame(f) })()`)); err != nil {
			t.Fatalf("%s: %v", tb.name, err)
		}
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`window.browsertestFrames >= 30`,
			chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(browserWait))); err != nil {
			t.Fatalf("%s: waiting %v for 30 animation frames: %v", tb.name, browserWait, err)
		}
	}
	p, err := chromedp.Run(ctx, chromedp.Evaluate[phases](`({...window.sightline,
		progressGot: window.sightlineLoad.progress.got,
		prepared: window.sightlinePreparedState ? window.sightlinePreparedState() : "none",
		fill: document.getElementById("fill").style.width,
		longTasks: window.browsertestLongTasks,
		navigationEnd: performance.getEntriesByType("navigation")[0].loadEventEnd,
		resources: performance.getEntriesByType("navigation").concat(performance.getEntriesByType("resource"))
			.map((e) => ({ name: e.name, transfer: e.transferSize })),
		packedError: String(window.sightline.wasmPackedError || "")})`))
	if err != nil {
		t.Fatalf("%s: read window.sightline: %v", tb.name, err)
	}
	if len(p.Errors) > 0 {
		t.Fatalf("%s: the page has errors %q", tb.name, p.Errors)
	}
	if pr := tb.problems(); len(pr) > 0 {
		t.Fatalf("%s: page errors:\n  %s", tb.name, strings.Join(pr, "\n  "))
	}
	if !drawing && p.FirstWorldDrawMs != 0 {
		t.Errorf("%s: drew the world at %.0f ms with every frame blank", tb.name, p.FirstWorldDrawMs)
	}
	chromedp.Cancel(tb.ctx) // close the tab: the next load has the machine to itself
	for _, lt := range p.LongTasks {
		if lt[0] <= p.FirstWorldDrawMs && p.FirstWorldDrawMs <= lt[0]+lt[1]+1 {
			p.worldTask = lt[1]
		}
	}
	return p
}

// checkPhases checks that the marks of a first visit are all there and in
// the order the page and the client run them, and that the progress bar
// counted the whole game.
func checkPhases(t *testing.T, p phases, wireBrotli, raw int) {
	t.Helper()
	if p.WasmEncoding != "br" || p.WasmWireBytes != wireBrotli || p.WasmBytes != raw || p.ProgressGot != raw || p.Fill != "100%" {
		t.Errorf("the page fetched game.wasm as %q, %d bytes on the wire of %d, counted %d, bar at %q; want br, %d of %d, counted all, 100%%",
			p.WasmEncoding, p.WasmWireBytes, p.WasmBytes, p.ProgressGot, p.Fill, wireBrotli, raw)
	}
	order := []struct {
		name string
		ms   float64
	}{
		{"wasmResponseMs", p.WasmResponseMs}, {"wasmFetchedMs", p.WasmFetchedMs}, {"compiledMs", p.CompiledMs},
		{"instantiatedMs", p.InstantiatedMs}, {"started", p.Started}, {"goMainMs", p.GoMainMs}, {"setupMs", p.SetupMs},
		{"signallingMs", p.SignallingMs}, {"connectedMs", p.ConnectedMs}, {"firstSnapshotMs", p.FirstSnapshotMs},
		{"firstWorldDrawMs", p.FirstWorldDrawMs}, {"firstWorldFrameMs", p.FirstWorldFrameMs},
	}
	for i, o := range order {
		if o.ms <= 0 {
			t.Errorf("window.sightline.%s is not set", o.name)
		} else if i > 0 && o.ms < order[i-1].ms {
			t.Errorf("window.sightline.%s (%.0f ms) before %s (%.0f ms)", o.name, o.ms, order[i-1].name, order[i-1].ms)
		}
	}
	// The game loop starts once the channels are open (signalling first).
	if p.GameLoopMs < p.ConnectedMs || p.GameLoopMs > p.FirstWorldDrawMs {
		t.Errorf("the game loop started at %.0f ms: not between connected (%.0f) and the first world frame (%.0f)",
			p.GameLoopMs, p.ConnectedMs, p.FirstWorldDrawMs)
	}
}

// logPhases logs the marks as the start-up figure has them (cmd/figures
// tabulates these lines).
func logPhases(t *testing.T, what string, p phases) {
	t.Helper()
	t.Logf("figure start-up, %s: game.wasm %s %d bytes on the wire (%d raw)", what, p.WasmEncoding, p.WasmWireBytes, p.WasmBytes)
	for _, r := range []struct {
		phase string
		ms    float64
	}{
		{"game.wasm answered, headers (`wasmResponseMs`)", p.WasmResponseMs},
		{"game.wasm fetched, last byte (`wasmFetchedMs`)", p.WasmFetchedMs},
		{"compiled, streaming (`compiledMs`)", p.CompiledMs},
		{"instantiated (`instantiatedMs`)", p.InstantiatedMs},
		{"Go main started: runtime and package inits done (`goMainMs`)", p.GoMainMs},
		{"sound found and settings ready (`setupMs`)", p.SetupMs},
		{"signalling started (`signallingMs`)", p.SignallingMs},
		{"channels open (`connectedMs`)", p.ConnectedMs},
		{"the game loop's first frame (`gameLoopMs`)", p.GameLoopMs},
		{"first snapshot decoded (`firstSnapshotMs`)", p.FirstSnapshotMs},
		{"first frame with the world drawn (`firstWorldDrawMs`)", p.FirstWorldDrawMs},
		{"that frame shown, the next animation frame (`firstWorldFrameMs`)", p.FirstWorldFrameMs},
	} {
		if r.ms > 0 {
			t.Logf("figure start-up, %s: | %s | %.0f ms |", what, r.phase, r.ms)
		}
	}
	t.Logf("figure start-up, %s: longest main-thread tasks: %s", what, formatTasks(longestFirst(p.LongTasks), 6))
}

// longestFirst sorts long tasks [start, duration] longest first.
func longestFirst(lt [][2]float64) [][2]float64 {
	lt = slices.Clone(lt)
	slices.SortFunc(lt, func(a, b [2]float64) int { return cmp.Compare(b[1], a[1]) })
	return lt
}

// packedSize returns the bytes of game.wasm.lzma the server at base sends.
func packedSize(t *testing.T, base string) int {
	t.Helper()
	resp, err := http.Get(base + "/" + web.WasmFile + web.LZMASuffix)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != web.TypePacked {
		t.Fatalf("%s%s: %s, %v", web.WasmFile, web.LZMASuffix, resp.Status, err)
	}
	return int(n)
}

// checkSizesAsInFigures compares the sizes served with the wasm-sizes and
// wasm-sizes-line figures of docs/figures.md: the build is reproducible, so
// with the Go version the figures were measured with, a change that moves
// a byte must come with `make figures FIGURES=wasm`. With another Go
// version the figures cannot be recomputed, and the test says so.
func checkSizesAsInFigures(t *testing.T, wire map[string][3]int, packed int) {
	t.Helper()
	figs, err := figures.Load(moduleRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	byName := figures.Index(figs)
	sizes := func(file, path string) figures.Sizes {
		w := wire[path]
		return figures.Sizes{File: file, Raw: w[web.Identity], Gzip: w[web.Gzip], Brotli: w[web.Brotli]}
	}
	got := []figures.Sizes{sizes(web.WasmFile, "/game.wasm"), sizes(web.ExecFile, "/wasm_exec.js"), sizes("the page (index.html)", "/")}
	got[0].LZMA = packed
	goVersion := goEnv(t, goCommand(t), "GOVERSION")
	for _, c := range []struct {
		name, content string
	}{
		{figures.WasmSizes, figures.SizesTable(got)},
		{figures.WasmSizesLine, figures.SizesLine(got[0])},
	} {
		f, ok := byName[c.name]
		if !ok {
			t.Errorf("%s has no figure %s: run `make figures FIGURES=wasm`", figures.Path, c.name)
			continue
		}
		if !strings.Contains(f.Machine, goVersion+",") {
			t.Logf("figure %s was measured on %q, not with %s: not compared", c.name, f.Machine, goVersion)
			continue
		}
		if f.Content != c.content {
			t.Errorf("figure %s in %s (measured %s) is stale: run `make figures FIGURES=wasm`\n--- in the file\n%s\n--- this build\n%s",
				c.name, figures.Path, f.Measured, f.Content, c.content)
		}
	}
}
