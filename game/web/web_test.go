package web

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/transport/webrtc"
	"github.com/sightline-game/sightline/wasm/page"
)

// Every method of the signalling path reaches the signalling endpoint and
// every other path the site, so a wrong method is answered by the product
// itself: 405 with the body "method not allowed" (docs/PROTOCOL.md §1),
// not the mux's own wording.
func TestMountAnswersWrongMethods(t *testing.T) {
	rtc, err := webrtc.NewServer(webrtc.ServerConfig{Version: protocol.Version, UDPHost: "127.0.0.1", IncludeLoopback: true, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer rtc.Close()
	site, err := New([]byte("<html>page</html>"), []byte("// exec"), []byte("\x00asm"))
	if err != nil {
		t.Fatal(err)
	}
	type call struct {
		method, path string
		code         int
		body, allow  string
	}
	signalling := []call{
		{"GET", "/signal", 405, "method not allowed\n", "POST"},
		{"HEAD", "/signal", 405, "method not allowed\n", "POST"}, // a server drops the body of a HEAD answer
		{"PUT", "/signal", 405, "method not allowed\n", "POST"},
		{"DELETE", "/signal", 405, "method not allowed\n", "POST"},
		{"POST", "/signal", 400, "not an offer\n", ""},
		{"GET", "/healthz", 200, "ok\n", ""},
	}
	for _, tc := range []struct {
		name  string
		site  *Site
		calls []call
	}{
		{"no site", nil, signalling},
		{"site", site, append(signalling[:len(signalling):len(signalling)],
			call{"GET", "/", 200, "<html>page</html>", ""},
			call{"POST", "/", 405, "method not allowed\n", "GET, HEAD"},
			call{"PUT", "/wasm_exec.js", 405, "method not allowed\n", "GET, HEAD"},
		)},
	} {
		mux := http.NewServeMux()
		mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok\n") })
		Mount(mux, "/signal", rtc, tc.site)
		for _, c := range tc.calls {
			req := httptest.NewRequest(c.method, c.path, strings.NewReader(`{"type":"answer","sdp":"","version":2}`))
			rec := httptest.NewRecorder()
			mux.ServeHTTP(rec, req)
			if rec.Code != c.code || rec.Body.String() != c.body || rec.Header().Get("Allow") != c.allow {
				t.Errorf("%s, %s %s: %d %q Allow %q; want %d %q Allow %q", tc.name, c.method, c.path,
					rec.Code, rec.Body, rec.Header().Get("Allow"), c.code, c.body, c.allow)
			}
		}
	}
}

// The page asks for /matches: a site on a server without a list of its own
// answers an empty one (the page then joins the server's one match), and a
// server's own list, mounted beside the site, wins.
func TestSiteAnswersAnEmptyMatchList(t *testing.T) {
	if emptyListPath != client.MatchesPath || emptyICEPath != protocol.ICEServersPath {
		t.Fatalf("the site answers %s and %s, the servers list at %s and %s", emptyListPath, emptyICEPath, client.MatchesPath, protocol.ICEServersPath)
	}
	// The same for the ICE servers.
	{
		site, err := New([]byte("<html>page</html>"), []byte("// exec"), []byte("\x00asm"))
		if err != nil {
			t.Fatal(err)
		}
		rec := httptest.NewRecorder()
		site.ServeHTTP(rec, httptest.NewRequest("GET", "/ice", nil))
		if rec.Code != 200 || rec.Body.String() != emptyICE {
			t.Errorf("GET /ice of a site alone: %d %q", rec.Code, rec.Body)
		}
	}
	site, err := New([]byte("<html>page</html>"), []byte("// exec"), []byte("\x00asm"))
	if err != nil {
		t.Fatal(err)
	}
	own := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, `{"matches":[{"id":"1"}]}`) })
	for _, tc := range []struct {
		name   string
		own    http.Handler
		method string
		code   int
		body   string
	}{
		{"site only", nil, "GET", 200, "{\"matches\":[]}\n"},
		{"site only, HEAD", nil, "HEAD", 200, ""},
		{"site only, POST", nil, "POST", 404, "404 page not found\n"},
		{"the server's own list", own, "GET", 200, `{"matches":[{"id":"1"}]}`},
	} {
		mux := http.NewServeMux()
		Mount(mux, client.SignalPath, http.NotFoundHandler(), site)
		if tc.own != nil {
			mux.Handle(client.MatchesPath, tc.own)
		}
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, httptest.NewRequest(tc.method, client.MatchesPath, nil))
		if rec.Code != tc.code || rec.Body.String() != tc.body {
			t.Errorf("%s: %d %q, want %d %q", tc.name, rec.Code, rec.Body, tc.code, tc.body)
		}
	}
}

// The page's policy lets exactly its two inline scripts run, by hash.
func TestPagePolicy(t *testing.T) {
	p := PagePolicy(page.Index)
	if n := strings.Count(p, "'sha256-"); n != 2 {
		t.Errorf("%d script hashes in %q, want the page's 2", n, p)
	}
	if got := PagePolicy([]byte("<script>x</script>")); !strings.Contains(got, "script-src 'self' 'wasm-unsafe-eval' 'sha256-LXEWQrcmsEQBYnyp+6wy9chTD7GQPMTbAiWHF5IaSIE=';") {
		t.Errorf("the hash of x: %q", got)
	}
}
