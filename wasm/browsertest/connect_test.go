package browsertest

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/sightline-game/sightline/game/web"
	"github.com/sightline-game/sightline/internal/testnet"
	"github.com/sightline-game/sightline/netcode/jointoken"
)

// pageConnect is what the page shows of the join (window.sightline.connect
// and the panel's text).
type pageConnect struct {
	Stages []struct {
		Stage  string  `json:"stage"`
		Detail string  `json:"detail"`
		Ms     float64 `json:"ms"`
	} `json:"stages"`
	Stage    string `json:"stage"`
	Failed   bool   `json:"failed"`
	Error    string `json:"error"`
	Shown    string `json:"shown"`    // the panel's text as drawn
	RetryOn  bool   `json:"retryOn"`  // the Retry button shows
	CancelOn bool   `json:"cancelOn"` // the Cancel button shows
	// StartMs is when the attempt shown began, in ms from navigation: a
	// retry is a new attempt.
	StartMs float64 `json:"startMs"`
}

func (p pageConnect) names() []string {
	var out []string
	for _, s := range p.Stages {
		out = append(out, s.Stage)
	}
	return out
}

// readConnect waits until the page shows a failed join and returns what it
// shows.
func (tb *tab) readConnect(t *testing.T) pageConnect { return tb.readConnectAfter(t, -1) }

// readConnectAfter is readConnect for a failed attempt begun after the one
// that began at startMs.
func (tb *tab) readConnectAfter(t *testing.T, startMs float64) pageConnect {
	t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, browserWait)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](fmt.Sprintf(`!!(window.sightline.connect && window.sightline.connect.failed && window.sightline.connect.startMs > %f)`, startMs),
		chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(browserWait))); err != nil {
		t.Fatalf("%s: waiting for the page to show a failed join: %v", tb.name, err)
	}
	p, err := chromedp.Run(ctx, chromedp.Evaluate[pageConnect](`(() => {
		window.sightlineShowConnect();
		const c = window.sightline.connect, shown = (id) => getComputedStyle(document.getElementById(id)).display !== "none";
		return {stages: c.stages, stage: c.stage, failed: c.failed, error: c.error, startMs: c.startMs,
			shown: document.getElementById("connect").innerText,
			retryOn: shown("connect") && shown("connectRetry"), cancelOn: shown("connectCancel")};
	})()`))
	if err != nil {
		t.Fatalf("%s: reading the join's panel: %v", tb.name, err)
	}
	return p
}

// The page draws a failed join's stages and its likely cause, with Retry:
// the real server refusing a bad join token (its own words: "join token
// malformed"), and a server that answers the offer but whose UDP never
// gets through (testnet.BlackHole, mounted beside the page), where ICE
// fails and the message names UDP and -public-ip. Retry tries again. Only
// the stages reached, in order, and the words shown are checked.
func TestBrowserShowsWhyAJoinFailed(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the WebAssembly client and the server, and runs Chromium")
	}
	chromium := requireChromium(t)
	dir := t.TempDir()
	webDir, serverExe := filepath.Join(dir, "web"), filepath.Join(dir, "server")
	buildWeb(t, webDir, serverExe, false)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	t.Cleanup(cancel)
	browser := startBrowser(t, ctx, chromium)

	t.Run("token refused", func(t *testing.T) {
		key, err := jointoken.NewKey()
		if err != nil {
			t.Fatal(err)
		}
		keyFile := filepath.Join(t.TempDir(), "token.key")
		if err := os.WriteFile(keyFile, []byte(key.String()), 0o600); err != nil {
			t.Fatal(err)
		}
		base := startServer(t, serverExe, webDir, "-bots", "1", "-token-key", keyFile)
		tb := newTab(t, browser, "refused")
		if err := chromedp.Do(tb.ctx, chromedp.EmulateViewport(viewW, viewH), chromedp.Navigate(base+"/?name=x&token=bogus")); err != nil {
			t.Fatal(err)
		}
		p := tb.readConnect(t)
		t.Logf("the page shows:\n%s", p.Shown)
		if got, want := p.names(), []string{"ice servers", "offer sent"}; !slices.Equal(got, want) {
			t.Errorf("stages %q, want %q", got, want)
		}
		for _, w := range []string{"refused your join token", "join token malformed", "new invite"} {
			if !strings.Contains(p.Shown, w) || !strings.Contains(p.Error, w) {
				t.Errorf("the page shows %q (error %q), without %q", p.Shown, p.Error, w)
			}
		}
		if !p.RetryOn || p.CancelOn {
			t.Errorf("after the failure Retry shows %v, Cancel %v; want Retry alone", p.RetryOn, p.CancelOn)
		}
		// Retry tries again: the same refusal comes back, after a new offer.
		rctx, rcancel := context.WithTimeout(tb.ctx, browserWait)
		defer rcancel()
		if err := chromedp.Do(rctx, chromedp.Click(chromedp.CSS("#connectRetry"))); err != nil {
			t.Fatalf("clicking Retry: %v", err)
		}
		if again := tb.readConnectAfter(t, p.StartMs); !strings.Contains(again.Error, "join token malformed") || !slices.Equal(again.names(), p.names()) {
			t.Errorf("after Retry: %+v", again)
		}
	})

	t.Run("udp dropped", func(t *testing.T) {
		bh := testnet.NewBlackHole(t)
		site, err := web.Load(webDir)
		if err != nil {
			t.Fatal(err)
		}
		mux := http.NewServeMux()
		web.Mount(mux, "/signal", bh.Signal, site)
		hs := httptest.NewServer(mux)
		t.Cleanup(hs.Close)
		tb := newTab(t, browser, "ice")
		if err := chromedp.Do(tb.ctx, chromedp.EmulateViewport(viewW, viewH), chromedp.Navigate(hs.URL+"/?name=x&ice-timeout=2s")); err != nil {
			t.Fatal(err)
		}
		p := tb.readConnect(t)
		t.Logf("the page shows:\n%s", p.Shown)
		if got, want := p.names(), []string{"ice servers", "offer sent", "answer received", "ice checks"}; !slices.Equal(got, want) {
			t.Errorf("stages %q, want %q", got, want)
		}
		for _, w := range []string{"ICE failed", "UDP", "8443", "-public-ip", "invite link"} {
			if !strings.Contains(p.Shown, w) {
				t.Errorf("the page shows %q, without %q", p.Shown, w)
			}
		}
		if dst := os.Getenv("SIGHTLINE_CONNECT_SHOTS_OUT"); dst != "" {
			if !filepath.IsAbs(dst) {
				dst = filepath.Join(moduleRoot(t), dst)
			}
			if err := os.WriteFile(filepath.Join(dst, "browser-connect-failed.png"), tb.capture(t), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	})
}
