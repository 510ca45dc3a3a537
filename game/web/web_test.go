package web

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/sightline-game/sightline/netcode/transport/webrtc"
)

// Every method of the signalling path reaches the signalling endpoint and
// every other path the site, so a wrong method is answered by the product
// itself: 405 with the body "method not allowed" (docs/PROTOCOL.md §1),
// not the mux's own wording.
func TestMountAnswersWrongMethods(t *testing.T) {
	rtc, err := webrtc.NewServer(webrtc.ServerConfig{UDPHost: "127.0.0.1", IncludeLoopback: true, Logger: slog.New(slog.DiscardHandler)})
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
