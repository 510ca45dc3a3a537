package browsertest

import (
	"context"
	"crypto/tls"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/internal/testnet"
	"github.com/sightline-game/sightline/netcode/jointoken"
)

// The browser plays a match served over HTTPS (a self-signed certificate
// Chromium is told to trust by its key) from a server that admits only
// invited players: the page carries its join token (?token=) with the
// offer, joins the match the token names, and verifies every tick. The
// page and /signal are on one HTTPS origin, as a game's HTTPS site needs
// (an HTTPS page may not call plain HTTP).
func TestBrowserPlaysOverHTTPSWithAToken(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the WebAssembly client and the server, and runs Chromium")
	}
	chromium := requireChromium(t)
	dir := t.TempDir()
	web, serverExe := filepath.Join(dir, "web"), filepath.Join(dir, "server")
	buildWeb(t, web, serverExe, false)
	cert := testnet.SelfSigned(t)
	key, err := jointoken.NewKey()
	if err != nil {
		t.Fatal(err)
	}
	keyFile := filepath.Join(t.TempDir(), "token.key")
	if err := os.WriteFile(keyFile, []byte(key.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	hc := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: cert.Pool}}}
	base := startServerWith(t, "https", hc, serverExe, web, "-matches", "2", "-bots", "2",
		"-tls-cert", cert.CertFile, "-tls-key", cert.KeyFile, "-token-key", keyFile)
	if !strings.HasPrefix(base, "https://") {
		t.Fatalf("base %s", base)
	}
	tok, err := jointoken.Mint(key, jointoken.Claims{Match: "2", Name: "invited", Expires: time.Now().Add(2 * time.Minute)})
	if err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	t.Cleanup(cancel)
	browser := startBrowser(t, ctx, chromium, chromedp.Flag("ignore-certificate-errors-spki-list", cert.SPKI))
	tb := newTab(t, browser, "https")
	if err := tb.load(base + "/?name=asked&token=" + tok); err != nil {
		t.Fatalf("%s: %v", tb.name, err)
	}
	st := tb.state(t)
	t.Logf("figure https: %s", st)
	if bad := st.problems(wantDecoded); len(bad) > 0 {
		t.Errorf("over HTTPS with a token: %s\n  (%s)", strings.Join(bad, "; "), st)
	}
	if p := tb.problems(); len(p) > 0 {
		t.Errorf("page errors:\n  %s", strings.Join(p, "\n  "))
	}
	// The token is gone from the address bar (and the history), the rest
	// of the address kept; the page asked for no referrer and for HTTPS.
	lctx, lcancel := context.WithTimeout(tb.ctx, browserWait)
	href, err := chromedp.Run(lctx, chromedp.Evaluate[string](`location.href`))
	lcancel()
	if err != nil || strings.Contains(href, "token") || !strings.Contains(href, "name=asked") {
		t.Errorf("the page's address after joining: %q (%v), want no token and the name kept", href, err)
	}
	resp, err := hc.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.Header.Get("Referrer-Policy") != "no-referrer" || !strings.HasPrefix(resp.Header.Get("Strict-Transport-Security"), "max-age=") {
		t.Errorf("the page's headers over HTTPS: %v", resp.Header)
	}
	lctx, lcancel = context.WithTimeout(ctx, browserWait)
	ms, err := client.ListMatchesWith(lctx, hc, base)
	lcancel()
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 2 || ms[0].Players != 2 || ms[1].Players != 3 {
		t.Errorf("GET /matches over HTTPS: %+v; want the tab in match 2 (its token's) beside 2 bots", ms)
	}
}
