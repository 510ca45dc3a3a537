// Package browsertest is the browser client's end-to-end test: it builds the
// WebAssembly client and the dedicated server, starts the server with bots,
// opens the page in two tabs of a headless Chromium (driven by chromedp) next
// to one headless desktop-protocol client, and checks that every player
// decodes the match and agrees with the server's hash of every tick. It also
// freezes one tab for a few seconds, as a hidden or throttled tab is, and
// checks that the game picks up again, and it takes a screenshot of a tab.
//
// TestBrowserStartup (startup_test.go) builds the client as `make web` does,
// precompressed, checks that the server sends each file in brotli or gzip as
// asked, then opens the page one tab at a time and logs each phase of the
// start from navigation to the first frame with the world (the README's
// start-up table): a first visit, a second (cached) one, and one that draws
// nothing (?blank=), which shows what software WebGL costs the start.
//
// TestBrowserTransport tests the browser's transport (transport/browser)
// alone: a small WebAssembly probe (wasm/browsertest/probe) dials a native
// WebRTC server that first puts it off with 503 and Retry-After, greets on
// every client channel, receives and echoes numbered events in order and
// sees its connection end when the server closes it.
//
// The tests wait for what the page, the game or the server says
// (window.sightline, the fingers the game saw with ?echo-input=1, the
// server's world), each wait bounded by minutes (browserWait), never for a
// fixed time: a busy machine makes them slower, not red.
//
// It needs Chromium at /usr/bin/chromium (`apt-get install chromium`, which
// `make deps` does when root; the test installs it itself when root). It
// never downloads a browser. Chromium runs headless with SwiftShader for
// WebGL2 (--disable-gpu --enable-unsafe-swiftshader).
//
// Run it alone with
//
//	go test -race -count=1 -v ./wasm/browsertest
//
// The log has the README's figures: time from navigation to the connection
// and to the first snapshot, and the size of game.wasm raw and gzipped. With
// SIGHTLINE_BROWSER_SCREENSHOT=docs/browser.png the test also writes its
// screenshot there; a relative path is taken from the module's root, not
// from this package's directory.
package browsertest
