package browsertest

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// killcamShown is what window.sightline.killcam says of the last frame
// that drew a killcam's verdict.
type killcamShown struct {
	Killer   uint32  `json:"killer"`
	Victim   uint32  `json:"victim"`
	EventX   int     `json:"eventX"`
	EventY   int     `json:"eventY"`
	JudgedX  float64 `json:"judgedX"`
	JudgedY  float64 `json:"judgedY"`
	OwnShown bool    `json:"ownShown"`
	Title    string  `json:"title"`
	Verdict  string  `json:"verdict"`
}

// The browser client shows the killcam when its player dies: a tab that
// joins a match of 8 bots and no creatures stands still until a bot kills
// it, then draws the kill replayed from the killer's side and holds its
// verdict, the judged marker exactly where the kill event says (1/8 px
// units). The screenshot is taken while the verdict is on screen.
func TestBrowserKillcam(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the WebAssembly client and the server, and runs Chromium")
	}
	chromium := requireChromium(t)
	began := time.Now()
	web := filepath.Join(t.TempDir(), "web")
	serverExe := filepath.Join(t.TempDir(), "server")
	buildWeb(t, web, serverExe, false)
	t.Logf("built in %v", time.Since(began).Round(100*time.Millisecond))
	base := startServer(t, serverExe, web, "-bots", "8", "-creatures", "0")

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	t.Cleanup(cancel)
	browser := startBrowser(t, ctx, chromium)
	tb := newTab(t, browser, "victim")
	if err := tb.load(base + "/?name=victim"); err != nil {
		t.Fatal(err)
	}
	// Wait for a death and its verdict on screen, and take the screenshot
	// then; bots find a player standing still within minutes, however busy
	// the machine. The page reports four times a second, and a verdict
	// shows for a second or so before the respawn: a screenshot that came
	// too late (no killcam's red frame on it) waits for the next death.
	const deathWait = 6 * time.Minute
	wctx, wcancel := context.WithTimeout(tb.ctx, 3*deathWait)
	defer wcancel()
	var buf []byte
	for try := 1; ; try++ {
		if _, err := chromedp.Run(wctx, chromedp.Poll[bool](`window.sightline.killcamPhase === "verdict"`,
			chromedp.WithPollingInterval(10*time.Millisecond), chromedp.WithPollingTimeout(deathWait))); err != nil {
			t.Fatalf("waiting %v for a killcam's verdict on screen (death %d): %v", deathWait, try, err)
		}
		buf = tb.capture(t)
		if framed(t, buf) {
			break
		}
		t.Logf("death %d: the screenshot came after the killcam", try)
		if try == 3 {
			t.Fatal("3 deaths, and no screenshot while the killcam showed")
		}
		if _, err := chromedp.Run(wctx, chromedp.Poll[bool](`window.sightline.killcamPhase !== "verdict"`,
			chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(deathWait))); err != nil {
			t.Fatal(err)
		}
	}
	k, err := chromedp.Run(wctx, chromedp.Evaluate[killcamShown](`window.sightline.killcam`))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the killcam after %v: %+v", time.Since(began).Round(100*time.Millisecond), k)
	if p := os.Getenv("SIGHTLINE_BROWSER_KILLCAM_SHOT"); p != "" {
		if !filepath.IsAbs(p) {
			p = filepath.Join(moduleRoot(t), p)
		}
		if err := os.WriteFile(p, buf, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot saved to %s", p)
	}
	if k.Victim == 0 || k.Killer == 0 || !strings.Contains(k.Title, "killed you") || k.Verdict == "" {
		t.Errorf("killcam %+v: want a bot's kill of this player, named, with its verdict", k)
	}
	if k.JudgedX != float64(k.EventX)/8 || k.JudgedY != float64(k.EventY)/8 {
		t.Errorf("the judged marker at (%v, %v), the kill event says (%d, %d)/8", k.JudgedX, k.JudgedY, k.EventX, k.EventY)
	}
	if !k.OwnShown {
		t.Error("no \"on your screen\" marker")
	}
	if bad := tb.problems(); len(bad) > 0 {
		t.Errorf("page errors: %q", bad)
	}
}

// framed reports whether the screenshot shows the killcam's red frame:
// the middle of each of the screen's four edges is red.
func framed(t *testing.T, buf []byte) bool {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(buf))
	if err != nil {
		t.Fatalf("the screenshot is no PNG: %v", err)
	}
	if b := img.Bounds(); b != image.Rect(0, 0, viewW, viewH) {
		t.Fatalf("screenshot is %v, want %dx%d", b, viewW, viewH)
	}
	for _, p := range [][2]int{{2, viewH / 2}, {viewW - 3, viewH / 2}, {viewW / 2, 2}, {viewW / 2, viewH - 3}} {
		r, g, b, _ := img.At(p[0], p[1]).RGBA()
		if r>>8 < 150 || g>>8 > 120 || b>>8 > 120 {
			return false
		}
	}
	return true
}
