package browsertest

import (
	"context"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sightline-game/sightline/game/web"
)

// lanDownloadBar is the most a browser may download over plain http from
// a LAN address to play: 2.6 MB, in millions of bytes, every answer's
// bytes on the wire (headers too) from navigation to the first frame with
// the world.
const lanDownloadBar = 2_600_000

// A browser on plain http at a LAN address asks for gzip alone (brotli
// and zstd only from secure origins): there the page downloads the game
// packed in LZMA, decodes it in a worker as it arrives and compiles it as
// it comes, and the game plays. All it downloads to reach the first frame
// with the world stays within lanDownloadBar.
func TestBrowserOnALANAddress(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the WebAssembly client and the server, and runs Chromium")
	}
	chromium := requireChromium(t)
	host := lanAddress(t)
	dir := t.TempDir()
	webDir, serverExe := filepath.Join(dir, "web"), filepath.Join(dir, "server")
	buildWeb(t, webDir, serverExe, true)
	base := startServerOn(t, host, "http", http.DefaultClient, serverExe, webDir)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	browser := startBrowser(t, ctx, chromium)
	tb := newTab(t, browser, "lan")
	p := loadStartup(t, tb, base+"/?name=lan", true)
	logPhases(t, "LAN address, plain http", p)
	if len(p.Errors) > 0 || p.FirstWorldFrameMs == 0 {
		t.Fatalf("the game did not start: errors %q", p.Errors)
	}
	packedErr, got := p.PackedError, p.Resources
	if p.WasmEncoding != "lzma" || packedErr != "" {
		t.Fatalf("game.wasm came %q (packed: %q); want the LZMA-packed game", p.WasmEncoding, packedErr)
	}
	total, byName := 0, map[string]int{}
	var lines []string
	for _, r := range got {
		total += r.Transfer
		name := strings.TrimPrefix(r.Name, base)
		if i := strings.IndexByte(name, '?'); i >= 0 {
			name = name[:i]
		}
		byName[name] += r.Transfer
		lines = append(lines, name+" "+strconv.Itoa(r.Transfer))
	}
	t.Logf("answers (bytes on the wire): %s", strings.Join(lines, ", "))
	for _, want := range []string{"/", "/wasm_exec.js", "/game.wasm.lzma", "/lzma.js"} {
		if byName[want] == 0 {
			t.Errorf("no answer for %s among the page's resources", want)
		}
	}
	if byName["/game.wasm"] != 0 {
		t.Errorf("game.wasm downloaded beside the packed game: %d bytes", byName["/game.wasm"])
	}
	if w := byName["/game.wasm.lzma"]; w < p.WasmWireBytes {
		t.Errorf("game.wasm.lzma: %d bytes on the wire, %d stated", w, p.WasmWireBytes)
	}
	if total > lanDownloadBar {
		t.Errorf("%d bytes downloaded over http from %s: over the %d-byte bar by %d", total, host, lanDownloadBar, total-lanDownloadBar)
	}
	t.Logf("figure lan: %d bytes downloaded over plain http from a LAN address to the first frame with the world "+
		"(game.wasm.lzma %d, of which the game %d; the page %d; lzma.js %d; wasm_exec.js %d); "+
		"first world frame %.0f ms, game.wasm decoded %.0f ms, compiled %.0f ms after navigation",
		total, byName["/game.wasm.lzma"], p.WasmWireBytes, byName["/"], byName["/lzma.js"], byName["/wasm_exec.js"],
		p.FirstWorldFrameMs, p.WasmFetchedMs, p.CompiledMs)

	// A server without the packed game: the page asks for it, is told 404,
	// and downloads game.wasm in gzip instead.
	plainDir := filepath.Join(dir, "plain")
	buildWeb(t, plainDir, filepath.Join(dir, "server-plain"), true)
	if err := os.Remove(filepath.Join(plainDir, web.WasmFile+web.LZMASuffix)); err != nil {
		t.Fatal(err)
	}
	plainBase := startServerOn(t, host, "http", http.DefaultClient, filepath.Join(dir, "server-plain"), plainDir)
	q := loadStartup(t, newTab(t, browser, "lan-plain"), plainBase+"/?name=lan-plain", true)
	if q.WasmEncoding != "gzip" || !strings.Contains(q.PackedError, "404") || q.FirstWorldFrameMs == 0 {
		t.Errorf("without game.wasm.lzma: game.wasm came %q (packed: %q), first world frame at %.0f ms; want gzip after a 404",
			q.WasmEncoding, q.PackedError, q.FirstWorldFrameMs)
	}
}

// resourceBytes is one answer the page got: its URL and its bytes on the
// wire, headers and body (Resource Timing's transferSize).
type resourceBytes struct {
	Name     string `json:"name"`
	Transfer int    `json:"transfer"`
}

// lanAddress returns an IPv4 address of this machine that is not loopback:
// a page from there is not a secure origin, as one from a LAN address is
// not.
func lanAddress(t *testing.T) string {
	t.Helper()
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() && !n.IP.IsLinkLocalUnicast() {
			return n.IP.String()
		}
	}
	t.Fatalf("no IPv4 address but loopback among %v: the test needs one (a LAN's) to load the page from an origin that is not secure", addrs)
	return ""
}
