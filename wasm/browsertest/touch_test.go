package browsertest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"log/slog"
	"math"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/desktop/settingsui"
	"github.com/sightline-game/sightline/game/desktop/touch"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/game/server"
	"github.com/sightline-game/sightline/game/web"
	"github.com/sightline-game/sightline/netcode/transport/webrtc"
)

// The browser client plays by touch: on an emulated touch screen, the move
// stick walks the player where it points and the aim stick turns it and
// fires, as the server's own world shows; at a phone's viewport held upright
// the game fills the screen with the portrait layout and its touch controls,
// and turns to the landscape layout when the phone turns.
func TestTouchPlays(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the WebAssembly client and runs Chromium")
	}
	chromium := requireChromium(t)
	began := time.Now()
	web := filepath.Join(t.TempDir(), "web")
	buildWeb(t, web, filepath.Join(t.TempDir(), "server"), false)
	t.Logf("built in %v", time.Since(began).Round(100*time.Millisecond))
	srv := startWatchedServer(t, web)

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	t.Cleanup(cancel)
	browser := startBrowser(t, ctx, chromium)

	t.Run("sticks", func(t *testing.T) { touchSticks(t, browser, srv) })
	t.Run("phone", func(t *testing.T) { touchPhone(t, browser, srv) })
	t.Logf("total %v", time.Since(began).Round(100*time.Millisecond))
}

// touchSticks drives both virtual sticks and the dash button of a 1280x720
// touch screen (one CSS px is one logical px) and checks the player in the
// server's world. Each finger goes down and up once the game said it saw
// the one before (?echo-input=1), and each push is held until the server's
// world shows what it does, however few frames a busy machine gives the
// page.
func touchSticks(t *testing.T, browser context.Context, srv *watchedServer) {
	tb := newTab(t, browser, "touch")
	began := time.Now()
	if err := tb.loadAs(srv.base+"/?name=thumbs&echo-input=1", chromedp.EmulateViewport(1280, 720, chromedp.EmulateTouch)); err != nil {
		t.Fatal(err)
	}
	id := srv.waitPlayer(t, 0)
	t.Logf("joined in %v as player %d", time.Since(began).Round(100*time.Millisecond), id)
	// A fresh browser profile: the first match opens on the how-to-play card.
	tb.waitHowToPlay(t, true)
	p0, _ := srv.player(id)

	// Walk the way with the most room, so that no wall stops the player.
	dir, room := srv.openDirection(p0.X, p0.Y)
	if room < 240 {
		t.Fatalf("no room to walk from (%.0f, %.0f): %.0f px at most", p0.X, p0.Y, room)
	}
	l := touch.NewLayout(1280, 720)
	const push = 80 // of the stick's 90 px radius: 0.89
	sx, sy := 200.0, 520.0
	tb.fingers(t, input.DispatchTouchEventTypeTouchStart, 1, [2]float64{sx, sy})
	tb.touches(t, input.DispatchTouchEventTypeTouchMove, [2]float64{sx + push*dir[0], sy + push*dir[1]})
	p1, walkTook := srv.waitWalked(t, id, p0, dir, 150)
	// A second finger on DASH while the first still walks, held until the
	// server started a dash.
	dashes := srv.stats().Dashes
	tb.fingers(t, input.DispatchTouchEventTypeTouchStart, 1, [2]float64{sx + push*dir[0], sy + push*dir[1]}, [2]float64{l.Dash.X, l.Dash.Y})
	st := srv.waitStats(t, "a dash", func(st arena.Stats) bool { return st.Dashes > dashes })
	tb.fingers(t, input.DispatchTouchEventTypeTouchEnd, 2)
	p2 := srv.waitStill(t, id)

	along := (p1.X-p0.X)*dir[0] + (p1.Y-p0.Y)*dir[1]
	across := math.Abs((p1.X-p0.X)*dir[1] - (p1.Y-p0.Y)*dir[0])
	t.Logf("figure touch move: stick toward (%.2f, %.2f): the server moved the player from (%.0f, %.0f) to (%.0f, %.0f) in %v: %.0f px along, %.0f px across; aim %.2f rad",
		dir[0], dir[1], p0.X, p0.Y, p1.X, p1.Y, walkTook.Round(100*time.Millisecond), along, across, p1.Aim)
	if across > 0.25*along {
		t.Errorf("the move stick pointed (%.2f, %.2f) but the player went %.0f px along and %.0f px across", dir[0], dir[1], along, across)
	}
	if d := angleDiff(p1.Aim, math.Atan2(dir[1], dir[0])); d > 0.1 {
		t.Errorf("walking without the aim stick, the player faces %.2f rad, %.2f off the walk", p1.Aim, d)
	}
	t.Logf("figure touch dash: %d dash started; the player went on to (%.0f, %.0f)", st.Dashes-dashes, p2.X, p2.Y)

	// The aim stick, pushed the other way past the fire threshold, turns the
	// player and fires; the world counts the shots (no bots, and creatures
	// bite but never shoot: every shot is this player's). Held until the
	// server turned the player and counted two shots.
	shots := st.ShotsFired
	back := math.Atan2(-dir[1], -dir[0])
	ax, ay := 1100.0, 560.0
	tb.fingers(t, input.DispatchTouchEventTypeTouchStart, 1, [2]float64{ax, ay})
	tb.touches(t, input.DispatchTouchEventTypeTouchMove, [2]float64{ax - push*dir[0], ay - push*dir[1]})
	st = srv.waitStats(t, "two shots", func(st arena.Stats) bool { return st.ShotsFired >= shots+2 })
	p3 := srv.waitPlayerState(t, id, "aiming the aim stick's way", func(p arena.PlayerInfo) bool { return angleDiff(p.Aim, back) <= 0.1 })
	tb.fingers(t, input.DispatchTouchEventTypeTouchEnd, 1)
	t.Logf("figure touch fire: aim stick toward %.2f rad: the player aims %.2f rad, %d shots fired (%d refused), %d this round",
		back, p3.Aim, st.ShotsFired-shots, st.ShotsRefused, p3.Shots)
	if moved := math.Hypot(p3.X-p2.X, p3.Y-p2.Y); moved > 5 {
		t.Errorf("the aim stick moved the player %.0f px", moved)
	}

	// MENU opens the pause menu, which then has the fingers: a thumb on
	// the move stick's side moves nobody. Resume, tapped, gives them back.
	tap := func(at touch.Point) {
		tb.fingers(t, input.DispatchTouchEventTypeTouchStart, 1, [2]float64{at.X, at.Y})
		tb.fingers(t, input.DispatchTouchEventTypeTouchEnd, 1)
	}
	tap(l.Menu.Center())
	from := srv.waitStill(t, id)
	dir, _ = srv.openDirection(from.X, from.Y)
	tb.fingers(t, input.DispatchTouchEventTypeTouchStart, 1, [2]float64{sx, sy})
	tb.touches(t, input.DispatchTouchEventTypeTouchMove, [2]float64{sx + push*dir[0], sy + push*dir[1]})
	tb.waitFrames(t, heldSnapshots)
	to, _ := srv.player(id)
	tb.fingers(t, input.DispatchTouchEventTypeTouchEnd, 1)
	paused := math.Hypot(to.X-from.X, to.Y-from.Y)
	resume := browserPause().ItemRect(0)
	tap(touch.Point{X: resume.X + resume.W/2, Y: resume.Y + resume.H/2})
	from = srv.waitStill(t, id)
	dir, _ = srv.openDirection(from.X, from.Y)
	tb.fingers(t, input.DispatchTouchEventTypeTouchStart, 1, [2]float64{sx, sy})
	tb.touches(t, input.DispatchTouchEventTypeTouchMove, [2]float64{sx + push*dir[0], sy + push*dir[1]})
	to, _ = srv.waitWalked(t, id, from, dir, 100)
	tb.fingers(t, input.DispatchTouchEventTypeTouchEnd, 1)
	resumed := (to.X-from.X)*dir[0] + (to.Y-from.Y)*dir[1]
	t.Logf("figure touch menu: the move stick held for %d snapshots with the pause menu open moved the player %.0f px; after Resume, %.0f px along it", heldSnapshots, paused, resumed)
	if paused > 5 {
		t.Errorf("with the pause menu open (MENU tapped) the move stick moved the player %.0f px", paused)
	}
	// The touches put the card away (the next tab's match, in the same
	// profile, starts without it: touchPhone).
	tb.waitHowToPlay(t, false)
	checkPage(t, tb)
}

// heldSnapshots is how many snapshots the page decodes while a finger
// holds a stick that must move nobody: a second of the server's ticks in
// which the game read the finger every frame it ran.
const heldSnapshots = 30

// touchPhone loads the game at a phone's viewport held upright, touches the
// move stick, and checks a screenshot: the canvas fills the viewport, the
// minimap is where the portrait layout puts it (not letterboxed), and the
// DASH button where package touch places it. Then the phone turns.
func touchPhone(t *testing.T, browser context.Context, srv *watchedServer) {
	tb := newTab(t, browser, "phone")
	const scale = 3
	if err := tb.loadAs(srv.base+"/?name=phone&echo-input=1", chromedp.EmulateViewport(360, 640,
		chromedp.EmulateScale(scale), chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait)); err != nil {
		t.Fatal(err)
	}
	id := srv.waitPlayer(t, 1)
	// The card was put away in the first tab (touchSticks): the settings in
	// localStorage remember it.
	tb.waitHowToPlay(t, false)
	fit := tb.pageFit(t)
	t.Logf("figure phone page: %+v", fit)
	if fit.InnerW != 360 || fit.InnerH != 640 || fit.Canvas != [4]float64{0, 0, 360, 640} || fit.ScrollW > 360 || fit.ScrollH > 640 {
		t.Errorf("the canvas does not fill the phone's viewport: %+v", fit)
	}

	// A thumb on the move stick, held while the screenshot is taken.
	tb.fingers(t, input.DispatchTouchEventTypeTouchStart, 1, [2]float64{80, 500})
	tb.touches(t, input.DispatchTouchEventTypeTouchMove, [2]float64{110, 485})
	tb.waitFrames(t, 2)
	buf := tb.capture(t)
	tb.fingers(t, input.DispatchTouchEventTypeTouchEnd, 1)
	if fit = tb.pageFit(t); !fit.Fullscreen {
		t.Errorf("no full-screen button on a touch screen: %+v", fit)
	}
	if p := os.Getenv("SIGHTLINE_PHONE_SCREENSHOT"); p != "" {
		if !filepath.IsAbs(p) {
			p = filepath.Join(moduleRoot(t), p) // the module's path, not the package's
		}
		if err := os.WriteFile(p, buf, 0o644); err != nil {
			t.Fatalf("SIGHTLINE_PHONE_SCREENSHOT: %v", err)
		}
		t.Logf("phone screenshot saved at %s", p)
	}
	checkLayoutShot(t, "portrait", buf, 360*scale, 640*scale, 720, 1280)

	// MENU, upright: the pause menu is laid out on the landscape screen and
	// drawn centred on this one; Resume is tapped where it is drawn. Each
	// CSS px is two logical px here.
	l := touch.NewLayout(720, 1280)
	tapAt := func(lx, ly float64) {
		tb.fingers(t, input.DispatchTouchEventTypeTouchStart, 1, [2]float64{lx / 2, ly / 2})
		tb.fingers(t, input.DispatchTouchEventTypeTouchEnd, 1)
	}
	// The length of the path the player walks while the stick leans left,
	// right, up and down in turn, so that some way is open, each lean held
	// for a few snapshots; with enough, the leans go on until the path is
	// that long.
	walked := func(enough float64) float64 {
		path := 0.0
		at := srv.waitStill(t, id)
		tb.fingers(t, input.DispatchTouchEventTypeTouchStart, 1, [2]float64{80, 500})
		deadline := time.Now().Add(browserWait)
		for round := 0; round == 0 || path < enough && time.Now().Before(deadline); round++ {
			for _, d := range [][2]float64{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
				tb.touches(t, input.DispatchTouchEventTypeTouchMove, [2]float64{80 + 40*d[0], 500 + 40*d[1]})
				tb.waitFrames(t, heldSnapshots/3)
				p, _ := srv.player(id)
				path += math.Hypot(p.X-at.X, p.Y-at.Y)
				at = p
			}
		}
		tb.fingers(t, input.DispatchTouchEventTypeTouchEnd, 1)
		return path
	}
	tapAt(l.Menu.X+l.Menu.W/2, l.Menu.Y+l.Menu.H/2)
	paused := walked(0)
	menuShot := tb.capture(t)
	resume := browserPause().ItemRect(0)
	tapAt(resume.X+resume.W/2+(720-1280)/2, resume.Y+resume.H/2+(1280-720)/2)
	resumed := walked(100)
	t.Logf("figure phone menu: upright, the move stick with the pause menu open moved the player %.0f px; after Resume, %.0f px", paused, resumed)
	if paused > 5 || resumed < 100 {
		t.Errorf("upright: with the pause menu open the player moved %.0f px, after Resume %.0f px", paused, resumed)
	}
	if p := os.Getenv("SIGHTLINE_PHONE_MENU_SCREENSHOT"); p != "" {
		if err := os.WriteFile(p, menuShot, 0o644); err != nil {
			t.Fatalf("SIGHTLINE_PHONE_MENU_SCREENSHOT: %v", err)
		}
	}

	// The phone turns: the game takes the landscape layout, still
	// unstretched. A finger the game saw down means it ran a frame, laid
	// out for the new viewport, since the turn.
	if _, err := chromedp.Run(tb.ctx, chromedp.EmulateViewport(640, 360,
		chromedp.EmulateScale(scale), chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateLandscape)); err != nil {
		t.Fatal(err)
	}
	tb.fingers(t, input.DispatchTouchEventTypeTouchStart, 1, [2]float64{60, 250})
	tb.waitFrames(t, 2)
	buf = tb.capture(t)
	tb.fingers(t, input.DispatchTouchEventTypeTouchEnd, 1)
	checkLayoutShot(t, "landscape", buf, 640*scale, 360*scale, 1280, 720)
	checkPage(t, tb)
}

// checkLayoutShot checks a screenshot of w x h device px showing a logical
// screen of lw x lh: the minimap's walls in its top-right corner and the DASH
// button's colour where touch.NewLayout puts it.
func checkLayoutShot(t *testing.T, name string, buf []byte, w, h int, lw, lh float64) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(buf))
	if err != nil {
		t.Fatalf("%s: screenshot is no PNG: %v", name, err)
	}
	if b := img.Bounds(); b != image.Rect(0, 0, w, h) {
		t.Fatalf("%s: screenshot is %v, want %dx%d", name, b, w, h)
	}
	k := float64(w) / lw // device px per logical px; the same both ways, or the game is stretched
	if ky := float64(h) / lh; math.Abs(k-ky) > 1e-9 {
		t.Fatalf("%s: %dx%d cannot show %vx%v unstretched", name, w, h, lw, lh)
	}
	// The minimap: 192 logical px, 12 from the top and right edges.
	mini := image.Rect(int((lw-12-192+8)*k), int((12+8)*k), int((lw-12-8)*k), int((12+192-8)*k))
	walls := fraction(img, mini, func(r, g, b uint8) bool { return near(r, 0x4a, 14) && near(g, 0x5b, 14) && near(b, 0x7a, 14) })
	// DASH: below its label, inside the circle.
	l := touch.NewLayout(lw, lh)
	dx, dy := l.Dash.X*k, (l.Dash.Y+0.6*l.Dash.R)*k
	dash := image.Rect(int(dx-6), int(dy-6), int(dx+6), int(dy+6))
	amber := fraction(img, dash, func(r, g, b uint8) bool { return r > 200 && g > 150 && g < 215 && b < 110 })
	t.Logf("figure phone %s: %dx%d screenshot, logical %vx%v; minimap %v: %.0f%% wall pixels; DASH at %v: %.0f%% amber",
		name, w, h, lw, lh, mini, 100*walls, dash, 100*amber)
	if walls < 0.05 {
		t.Errorf("%s: the minimap is not at %v: %.1f%% of its pixels are walls", name, mini, 100*walls)
	}
	if amber < 0.9 {
		t.Errorf("%s: DASH is not at %v: %.0f%% of its pixels are its colour", name, dash, 100*amber)
	}
}

func near(v, want uint8, tol int) bool { return math.Abs(float64(v)-float64(want)) <= float64(tol) }

// fraction returns the share of r's pixels for which ok holds.
func fraction(img image.Image, r image.Rectangle, ok func(r, g, b uint8) bool) float64 {
	n, hit := 0, 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			n++
			if ok(uint8(cr>>8), uint8(cg>>8), uint8(cb>>8)) {
				hit++
			}
		}
	}
	if n == 0 {
		return 0
	}
	return float64(hit) / float64(n)
}

func angleDiff(a, b float64) float64 {
	d := math.Mod(math.Abs(a-b), 2*math.Pi)
	return math.Min(d, 2*math.Pi-d)
}

// checkPage fails the test if the page decoded too little, disagreed with
// the server on a tick or reported an error.
func checkPage(t *testing.T, tb *tab) {
	t.Helper()
	st := tb.state(t)
	t.Logf("%s: %s", tb.name, st)
	if bad := st.problems(wantDecoded); len(bad) > 0 {
		t.Errorf("%s: %v", tb.name, bad)
	}
	if p := tb.problems(); len(p) > 0 {
		t.Errorf("%s: page errors: %q", tb.name, p)
	}
}

// loadAs opens the page with an emulated device and waits until the game
// decoded wantDecoded snapshots (or reported a problem).
func (tb *tab) loadAs(url string, device chromedp.Action[chromedp.Void]) error {
	ctx, cancel := context.WithTimeout(tb.ctx, browserWait+10*time.Second)
	defer cancel()
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: instrumentJS}); err != nil {
		return err
	}
	url = testFPS(url)
	if err := chromedp.Do(ctx, device, chromedp.Navigate(url)); err != nil {
		return fmt.Errorf("open %s: %w", url, err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](
		fmt.Sprintf(`window.sightline.decoded >= %d || window.sightline.errors.length > 0 || window.sightline.closed === true`, wantDecoded),
		chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(browserWait))); err != nil {
		return fmt.Errorf("waiting %v for %d snapshots: %w", browserWait, wantDecoded, err)
	}
	return nil
}

// touches dispatches one touch event with the fingers at points (CSS px);
// ids are the points' indices, so a finger keeps its id from event to event.
func (tb *tab) touches(t *testing.T, typ input.DispatchTouchEventType, points ...[2]float64) {
	t.Helper()
	tps := make([]*input.TouchPoint, len(points))
	for i, p := range points {
		id := float64(i)
		tps[i] = &input.TouchPoint{X: p[0], Y: p[1], ID: &id}
	}
	ctx, cancel := context.WithTimeout(tb.ctx, browserWait)
	defer cancel()
	if _, err := chromedp.Call(ctx, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: typ, TouchPoints: tps}); err != nil {
		t.Fatalf("%s: touch %s %v: %v", tb.name, typ, points, err)
	}
}

// fingers dispatches a touch event as touches does, then waits until the
// game said it saw n fingers go down (TouchStart) or up (TouchEnd): the
// game reads the fingers once a frame, so a tap shorter than the time
// between two frames of a busy page is never seen.
func (tb *tab) fingers(t *testing.T, typ input.DispatchTouchEventType, n int, points ...[2]float64) {
	t.Helper()
	line := "input: touch down"
	if typ == input.DispatchTouchEventTypeTouchEnd {
		line = "input: touch up"
	}
	count := fmt.Sprintf(`window.sightline.input.filter((l) => l === %q).length`, line)
	ctx, cancel := context.WithTimeout(tb.ctx, browserWait)
	defer cancel()
	before, err := chromedp.Run(ctx, chromedp.Evaluate[int](count))
	if err != nil {
		t.Fatalf("%s: read what the game saw (?echo-input=1): %v", tb.name, err)
	}
	tb.touches(t, typ, points...)
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](fmt.Sprintf(`%s >= %d`, count, before+n),
		chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(browserWait))); err != nil {
		t.Fatalf("%s: the game did not say %q %d times within %v: %v", tb.name, line, n, browserWait, err)
	}
}

// waitHowToPlay waits until the page's match is on screen and its
// how-to-play card is shown, or not, as shown says.
func (tb *tab) waitHowToPlay(t *testing.T, shown bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, browserWait)
	defer cancel()
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](fmt.Sprintf(`window.sightline.howToPlay === %v`, shown),
		chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(browserWait)))
	if err != nil {
		got, _ := chromedp.Run(ctx, chromedp.Evaluate[any](`window.sightline.howToPlay`))
		t.Fatalf("%s: waiting %v for the how-to-play card to be shown %v: %v (howToPlay %v)", tb.name, browserWait, shown, err, got)
	}
}

// waitFrames waits until the page decoded n more snapshots: the game ran
// frames for n of the server's ticks since the call.
func (tb *tab) waitFrames(t *testing.T, n int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, browserWait)
	defer cancel()
	from, err := chromedp.Run(ctx, chromedp.Evaluate[int](`window.sightline.decoded`))
	if err == nil {
		_, err = chromedp.Run(ctx, chromedp.Poll[bool](fmt.Sprintf(`window.sightline.decoded >= %d`, from+n),
			chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(browserWait)))
	}
	if err != nil {
		t.Fatalf("%s: waiting %v for %d more snapshots decoded: %v", tb.name, browserWait, n, err)
	}
}

func (tb *tab) capture(t *testing.T) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, browserWait)
	defer cancel()
	buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("%s: screenshot: %v", tb.name, err)
	}
	return buf
}

// fit is how the page sits in the viewport.
type fit struct {
	InnerW, InnerH   float64
	ScrollW, ScrollH float64
	Canvas           [4]float64 // the canvas's x, y, width, height in CSS px
	Fullscreen       bool       // the full-screen button shows
}

func (tb *tab) pageFit(t *testing.T) fit {
	t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, browserWait)
	defer cancel()
	f, err := chromedp.Run(ctx, chromedp.Evaluate[fit](`(() => {
		const c = document.querySelector("canvas").getBoundingClientRect();
		const e = document.scrollingElement;
		return {InnerW: innerWidth, InnerH: innerHeight, ScrollW: e.scrollWidth, ScrollH: e.scrollHeight,
			Canvas: [c.x, c.y, c.width, c.height],
			Fullscreen: getComputedStyle(document.getElementById("fullscreen")).display !== "none"};
	})()`))
	if err != nil {
		t.Fatalf("%s: read the page's layout: %v", tb.name, err)
	}
	return f
}

// watchedServer is a match server in the test's process, without bots,
// whose world the test can read: every player's state after every
// tick, and the world's counters.
type watchedServer struct {
	base  string
	world *watchedWorld
}

// watchedWorld is the match as the server runs it, keeping a copy of what
// the test reads after each Step (the server steps it on its own goroutine).
type watchedWorld struct {
	*server.Match

	mu      sync.Mutex
	order   []arena.PlayerID // in the order they joined
	players map[arena.PlayerID]arena.PlayerInfo
	stats   arena.Stats
	steps   uint64 // the ticks stepped
}

func (w *watchedWorld) AddPlayer(id arena.PlayerID) {
	w.Match.AddPlayer(id)
	w.mu.Lock()
	defer w.mu.Unlock()
	w.order = append(w.order, id)
}

func (w *watchedWorld) Step() {
	w.Match.Step()
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, id := range w.order {
		if p, ok := w.Match.Player(id); ok {
			w.players[id] = p
		}
	}
	w.stats = w.Match.Stats()
	w.steps++
}

func startWatchedServer(t *testing.T, webDir string) *watchedServer {
	t.Helper()
	log := slog.New(slog.NewTextHandler(&testWriter{t: t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	// No creatures: one that bites or blocks the player would cut the
	// walks the test measures short (the arena's zero is its default 300).
	aw, err := arena.NewWorld(arena.Config{Seed: 7, MaxPlayers: 4, Creatures: -1})
	if err != nil {
		t.Fatal(err)
	}
	w := &watchedWorld{Match: server.NewMatch(aw), players: map[arena.PlayerID]arena.PlayerInfo{}}
	match, err := server.New(server.Config{MaxClients: 4, Verify: true, Logger: log, Timeout: clientTimeout}, w)
	if err != nil {
		t.Fatal(err)
	}
	rtc, err := webrtc.NewServer(webrtc.ServerConfig{Version: protocol.Version, UDPHost: "127.0.0.1", IncludeLoopback: true, MaxSessions: 4, Logger: log, ConnectTimeout: connectTimeout})
	if err != nil {
		t.Fatal(err)
	}
	site, err := web.Load(webDir)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	web.Mount(mux, client.SignalPath, rtc, site)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { defer wg.Done(); match.Run(ctx) }()
	go func() { defer wg.Done(); match.Serve(ctx, rtc.Accept) }()
	go func() {
		defer wg.Done()
		if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("http: %v", err)
		}
	}()
	t.Cleanup(func() {
		cancel()
		hs.Close()
		rtc.Close()
		wg.Wait()
	})
	return &watchedServer{base: "http://" + ln.Addr().String(), world: w}
}

// waitPlayer waits for the n-th player (from 0) to join and returns its id.
func (s *watchedServer) waitPlayer(t *testing.T, n int) arena.PlayerID {
	t.Helper()
	deadline := time.Now().Add(browserWait)
	for {
		s.world.mu.Lock()
		var id arena.PlayerID
		if len(s.world.order) > n {
			id = s.world.order[n]
		}
		_, ok := s.world.players[id]
		s.world.mu.Unlock()
		if ok {
			return id
		}
		if time.Now().After(deadline) {
			t.Fatalf("player %d never joined the server's world", n+1)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitPlayerState waits until the server's world shows player id as ok
// says, and returns it.
func (s *watchedServer) waitPlayerState(t *testing.T, id arena.PlayerID, what string, ok func(arena.PlayerInfo) bool) arena.PlayerInfo {
	t.Helper()
	deadline := time.Now().Add(browserWait)
	for {
		p, _ := s.player(id)
		if ok(p) {
			return p
		}
		if time.Now().After(deadline) {
			t.Fatalf("player %d not %s within %v: %+v", id, what, browserWait, p)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitWalked waits until player id has gone far px along dir from from,
// and returns where it is then and how long that took.
func (s *watchedServer) waitWalked(t *testing.T, id arena.PlayerID, from arena.PlayerInfo, dir [2]float64, far float64) (arena.PlayerInfo, time.Duration) {
	t.Helper()
	start := time.Now()
	p := s.waitPlayerState(t, id, fmt.Sprintf("%.0f px along (%.2f, %.2f)", far, dir[0], dir[1]), func(p arena.PlayerInfo) bool {
		return (p.X-from.X)*dir[0]+(p.Y-from.Y)*dir[1] >= far
	})
	return p, time.Since(start)
}

// waitStill waits until player id has stood still for stillTicks of the
// server's ticks (the inputs sent before a finger went up are applied),
// and returns it.
func (s *watchedServer) waitStill(t *testing.T, id arena.PlayerID) arena.PlayerInfo {
	t.Helper()
	deadline := time.Now().Add(browserWait)
	last, _ := s.player(id)
	since := s.ticks()
	for {
		time.Sleep(20 * time.Millisecond)
		p, _ := s.player(id)
		if p.X != last.X || p.Y != last.Y {
			last, since = p, s.ticks()
		} else if s.ticks()-since >= stillTicks {
			return p
		}
		if time.Now().After(deadline) {
			t.Fatalf("player %d did not stand still for %d ticks within %v", id, stillTicks, browserWait)
		}
	}
}

// stillTicks is how many of the server's ticks a player must stay put to
// count as standing still: half a second.
const stillTicks = arena.TickRate / 2

// waitStats waits until the world's counters say what ok wants.
func (s *watchedServer) waitStats(t *testing.T, what string, ok func(arena.Stats) bool) arena.Stats {
	t.Helper()
	deadline := time.Now().Add(browserWait)
	for {
		st := s.stats()
		if ok(st) {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("the world did not count %s within %v: %+v", what, browserWait, st)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (s *watchedServer) ticks() uint64 {
	s.world.mu.Lock()
	defer s.world.mu.Unlock()
	return s.world.steps
}

func (s *watchedServer) player(id arena.PlayerID) (arena.PlayerInfo, bool) {
	s.world.mu.Lock()
	defer s.world.mu.Unlock()
	p, ok := s.world.players[id]
	return p, ok
}

func (s *watchedServer) stats() arena.Stats {
	s.world.mu.Lock()
	defer s.world.mu.Unlock()
	return s.world.stats
}

// openDirection returns, of the eight stick directions, the one a player at
// (x, y) can walk furthest in a straight line, and how far (up to 600 px).
func (s *watchedServer) openDirection(x, y float64) ([2]float64, float64) {
	m := s.world.Map()
	var best [2]float64
	bestRoom := -1.0
	for i := range 8 {
		a := float64(i) * math.Pi / 4
		d := [2]float64{math.Cos(a), math.Sin(a)}
		room := 0.0
		for room < 600 && !m.Blocked(x+d[0]*(room+8), y+d[1]*(room+8), arena.PlayerRadius) {
			room += 8
		}
		if room > bestRoom {
			best, bestRoom = d, room
		}
	}
	return best, bestRoom
}

// testWriter sends the server's warnings to the test's log.
type testWriter struct{ t *testing.T }

func (w *testWriter) Write(p []byte) (int, error) {
	w.t.Log(string(bytes.TrimSpace(p)))
	return len(p), nil
}

// browserPause is the browser's pause menu: Resume, Settings, How to play
// and Copy join link (the page's link).
func browserPause() *settingsui.Pause {
	p := settingsui.NewPause(false, false)
	p.OfferCopy()
	return p
}
