package xvfbtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The colors the game draws with (game/desktop/palette.go), looked for in
// the screenshot.
var (
	selfColor   = color.RGBA{0x3d, 0xd6, 0xff, 0xff}
	textColor   = color.RGBA{0xec, 0xef, 0xf4, 0xff}
	bannerColor = color.RGBA{0xff, 0x5a, 0x5f, 0xff} // "YOU DIED"
)

const (
	width, height = 1280, 720
	runFor        = 6 * time.Second
)

// TestGameDrawsAMatchInXvfb builds cmd/game, hosts a match with bots in it
// under Xvfb with a bot steering the player, and checks the screenshot of
// the frame drawn after runFor: the window's size, that it is not blank,
// that walls, floor and HUD text are there, and that every body the game
// says it drew (shot.json) is in the picture where it says. A player
// killed in those seconds watches the killcam, which draws another world
// (its own tests check it): then the game runs again, at most killcamTries
// times in all.
func TestGameDrawsAMatchInXvfb(t *testing.T) {
	xvfb := needXvfb(t)
	bin := gameBinary(t)
	var (
		data []byte
		d    *drawn
	)
	for try := 1; ; try++ {
		data, d = windowShot(t, xvfb, bin)
		if d.Killcam == nil {
			break
		}
		if try == killcamTries {
			t.Fatalf("the player was killed and the frame was its killcam in %d runs of %v", try, runFor)
		}
		t.Logf("run %d: the player was killed, and the frame is its killcam: once more", try)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("screenshot is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != width || b.Dy() != height {
		t.Fatalf("screenshot is %dx%d, want %dx%d", b.Dx(), b.Dy(), width, height)
	}
	saveShot(t, "SIGHTLINE_SCREENSHOT_OUT", data)
	checkPicture(t, img, d)
	checkChecksCanFail(t, img, d)
}

// killcamTries is how many times a test runs the game for a frame it can
// check when chance spoils one: the player killed in the first seconds
// (about one run in ten, TestGameDrawsAMatchInXvfb), or killed in the
// world's corner, under the overlay's panel (TestKillcamOnDeathInXvfb).
const killcamTries = 3

// windowShot runs the game hosting a match for runFor and returns its last
// frame's screenshot and what it says it drew.
func windowShot(t *testing.T, xvfb, bin string) ([]byte, *drawn) {
	t.Helper()
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	shot := filepath.Join(dir, "shot.png")
	run := exec.CommandContext(ctx, xvfb, "-a", "-s", "-screen 0 1280x720x24",
		bin, "-host", "-addr", "127.0.0.1:0", "-bots", "8", "-seed", "7", "-name", "tester",
		"-fps", "30", "-autopilot", "-overlay", "-screenshot", shot, "-exit-after", runFor.String())
	run.Dir = dir
	run.Env = append(os.Environ(), "XDG_CONFIG_HOME="+dir) // not the user's settings
	var out bytes.Buffer
	run.Stdout, run.Stderr = &out, &out
	start := time.Now()
	err := run.Run()
	t.Logf("game ran %v; output:\n%s", time.Since(start).Round(time.Millisecond), out.String())
	if err != nil {
		t.Fatalf("game under xvfb-run: %v", err)
	}
	if strings.Contains(out.String(), "panic:") {
		t.Fatal("the game panicked")
	}
	data, err := os.ReadFile(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	return data, readDrawn(t, filepath.Join(dir, "shot.json"))
}

// minWallsToTellTheMap is the fewest wall tiles in the clear with which
// the checks must tell a map 32 px off from the right one (with one, a
// frame passed both with no tile wrong).
const minWallsToTellTheMap = 3

// checker is what the picture checks report to: a *testing.T, or a tally
// that counts what they would fail.
type checker interface {
	Helper()
	Logf(format string, args ...any)
	Error(args ...any)
	Errorf(format string, args ...any)
}

// tally counts failures instead of failing, and keeps what was logged.
type tally struct {
	failed int
	logs   []string
}

func (*tally) Helper() {}
func (t *tally) Logf(format string, args ...any) {
	t.logs = append(t.logs, fmt.Sprintf(format, args...))
}
func (t *tally) Error(...any)          { t.failed++ }
func (t *tally) Errorf(string, ...any) { t.failed++ }

// checkChecksCanFail runs the checks on the same screenshot against wrong
// records, which they must reject: every body drawn 8 px right of where it
// was; the map 32 px off; and the tiles painted flat (each tile one
// colour, as the map was drawn before the art).
func checkChecksCanFail(t *testing.T, img image.Image, d *drawn) {
	t.Helper()
	shifted := *d
	shifted.Players, shifted.Creatures = shiftBodies(d.Players), shiftBodies(d.Creatures)
	var bodies tally
	if checked := checkBodies(&bodies, img, &shifted); checked > 0 && bodies.failed < checked {
		t.Errorf("the checks passed %d of %d bodies drawn one radius off their place", checked-bodies.failed, checked)
	}
	for _, l := range bodies.logs {
		if strings.Contains(l, "covers") {
			t.Logf("one radius off: %s", l)
		}
	}
	off := *d
	off.MapOrigin[0] += 32
	off.MapOrigin[1] += 32
	// Floor tiles look alike, so only walls tell a map 32 px off from the
	// right one; and the checks allow a few tiles spoilt by what is drawn
	// over them, so a few walls can pass a map 32 px off as a whole. What
	// must hold: the map 32 px off has more tiles wrong than the right one.
	var tiles tally
	_, offWrong := checkTiles(&tiles, img, &off, allBodies(d))
	walls, wrong := checkTiles(new(tally), img, d, allBodies(d))
	if walls >= minWallsToTellTheMap && offWrong <= wrong {
		t.Errorf("the map looked for 32 px off its place has %d tiles wrong, the right one %d (%d wall tiles in the clear)", offWrong, wrong, walls)
	}
	var flat tally
	checkTiles(&flat, flatTiles(img, d), d, allBodies(d))
	if flat.failed == 0 {
		t.Error("the checks passed flat tiles")
	}
	t.Logf("the checks reject bodies a radius off (%d failures), the map 32 px off (%d; %d tiles wrong against %d) and flat tiles (%d)", bodies.failed, tiles.failed, offWrong, wrong, flat.failed)
}

func shiftBodies(bodies []drawnBody) []drawnBody {
	out := append([]drawnBody(nil), bodies...)
	for i := range out {
		out[i].At[0] += out[i].Radius
	}
	return out
}

func allBodies(d *drawn) []drawnBody {
	return append(append([]drawnBody{d.Self}, d.Players...), d.Creatures...)
}

// flatTiles returns img with every tile of the map painted in its mean
// colour.
func flatTiles(img image.Image, d *drawn) image.Image {
	b := img.Bounds()
	out := image.NewRGBA(b)
	ox, oy := int(d.MapOrigin[0]), int(d.MapOrigin[1])
	const t = 64
	for y0 := oy - (oy/t+1)*t; y0 < b.Max.Y; y0 += t {
		for x0 := ox - (ox/t+1)*t; x0 < b.Max.X; x0 += t {
			r := image.Rect(x0, y0, x0+t, y0+t).Intersect(b)
			if r.Empty() {
				continue
			}
			var sum [3]int
			for y := r.Min.Y; y < r.Max.Y; y++ {
				for x := r.Min.X; x < r.Max.X; x++ {
					c := rgbAt(img, x, y)
					sum[0], sum[1], sum[2] = sum[0]+int(c.R), sum[1]+int(c.G), sum[2]+int(c.B)
				}
			}
			n := r.Dx() * r.Dy()
			mean := color.RGBA{uint8(sum[0] / n), uint8(sum[1] / n), uint8(sum[2] / n), 0xff}
			for y := r.Min.Y; y < r.Max.Y; y++ {
				for x := r.Min.X; x < r.Max.X; x++ {
					out.SetRGBA(x, y, mean)
				}
			}
		}
	}
	return out
}

// drawnBody and drawn mirror the JSON the game writes beside its
// screenshot (game/desktop/drawn.go): what the frame drew where.
type drawnBody struct {
	At       [2]float64 `json:"at"`
	Radius   float64    `json:"radius"`
	Color    [3]uint8   `json:"color"`
	Dead     bool       `json:"dead"`
	Hurt     bool       `json:"hurt"`
	Shielded bool       `json:"shielded"`
}

type drawnMark struct {
	At     [2]float64 `json:"at"`
	Radius float64    `json:"radius"`
}

type drawn struct {
	Self      drawnBody   `json:"self"`
	SelfShown bool        `json:"self_shown"`
	Players   []drawnBody `json:"players"`
	Creatures []drawnBody `json:"creatures"`
	Over      []drawnMark `json:"over"`
	MapSeed   uint64      `json:"map_seed"`
	MapOrigin [2]float64  `json:"map_origin"`
	SelfWorld [2]float64  `json:"self_world"`
	Draws     int         `json:"draws"`
	// Killcam is set when the frame was a killcam's (what it drew is
	// checked by the killcam's tests).
	Killcam json.RawMessage `json:"killcam"`
}

func readDrawn(t *testing.T, path string) *drawn { return readRecord[drawn](t, path) }

// readRecord reads the game's record of what a frame drew (the JSON beside
// its screenshot) into a T.
func readRecord[T any](t *testing.T, path string) *T {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no record of what the frame drew: %v", err)
	}
	var d T
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &d
}

// busyRects are where the HUD (with -overlay) draws over the world: the
// status panel and network overlay, the minimap, the kill feed, the round
// clock, the notices under it ("bot 2 joined": up to three lines of 22 px
// from y 84, centred), the banner and the hints and health bar along the
// bottom. A body or tile there is not checked against the pixels. The
// network overlay is as wide as its widest row (some 440 px with a long
// packet row), so its rectangle is wider than its least width.
var busyRects = []image.Rectangle{
	image.Rect(0, 0, 480, 470),
	image.Rect(1060, 0, 1280, 380),
	image.Rect(560, 0, 720, 80),
	image.Rect(400, 80, 880, 156),
	bannerRect,
	image.Rect(0, 610, 1280, 720),
}

var (
	minimapRect = image.Rect(1076, 12, 1268, 204)
	bannerRect  = image.Rect(400, 220, 880, 320) // "YOU DIED" and "respawning..."
	screenRect  = image.Rect(0, 0, width, height)
	// clearRect is the screen inside the red edges the game draws for a
	// moment after the own player is hurt (drawDamageFlash: up to 23 px).
	clearRect = screenRect.Inset(24)
)

// minCover is the least share of a body's disc that must show its colour.
// A player is the soldier sprite, light greys multiplied by the player's
// colour (red-shifted while hurt): its chest, arms and helmet fill most of
// the disc, but boots, gun, outlines and backpack do not show the colour.
// A creature is the beetle: green wing cases and pronotum inside legs,
// head and outline (white-hot while hurt). Measured over many runs:
// players 0.55 to 0.63, creatures 0.62 to 0.65; a creature looked for one
// radius off its place covers 0.22 to 0.31 (checkChecksCanFail shows it).
const (
	minPlayerCover   = 0.40
	minCreatureCover = 0.45
)

// maxWorldDraws bounds the world's draw calls per frame (the map's chunks,
// every sprite and health bar): a frame with eight players, tens of
// creatures, projectiles and effects stays far below it; Ebitengine batches
// them into a few GPU draws since all come from one atlas.
const maxWorldDraws = 400

// checkPicture checks img against what the game says it drew: the own
// player where the camera put it in its colour, or the death banner when
// it is dead; every other player and creature drawn clear of the HUD and
// of other bodies in its colour at its place; the map's tiles where the
// map has them, drawn as textured plates and bevelled blocks; the own dot
// on the minimap; many colors and HUD text.
func checkPicture(t checker, img image.Image, d *drawn) {
	t.Helper()
	colors := map[color.RGBA]int{}
	var selfOnMinimap int
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := rgbAt(img, x, y)
			colors[c]++
			p := image.Pt(x, y)
			if p.In(minimapRect) && near(c, selfColor, 6) {
				selfOnMinimap++
			}
		}
	}
	t.Logf("%d distinct colors, %d px of the own dot on the minimap; drew %d other players and %d creatures in %d world draw calls",
		len(colors), selfOnMinimap, len(d.Players), len(d.Creatures), d.Draws)
	if len(colors) < 400 {
		t.Errorf("only %d distinct colors: the frame looks blank", len(colors))
	}
	if selfOnMinimap < 8 {
		t.Errorf("%d pixels of the own player's dot on the minimap, want at least 8", selfOnMinimap)
	}
	if d.Draws < 4 || d.Draws > maxWorldDraws {
		t.Errorf("the world took %d draw calls, want 4 to %d", d.Draws, maxWorldDraws)
	}

	checkBodies(t, img, d)
	checkTiles(t, img, d, allBodies(d))

	n := 0
	for c, k := range colors {
		if near(c, textColor, 6) {
			n += k
		}
	}
	t.Logf("HUD text   %6d px", n)
	if n < 300 {
		t.Errorf("%d pixels of the HUD text color %v, want at least 300", n, textColor)
	}
}

// worldSize is the arena's side in px (arena.WorldSize).
const worldSize = 4096

// onCameraPath reports whether the own player was drawn where the camera
// puts it: at the world position it was drawn at, moved by the map's
// origin (within a pixel, the origin being floored), and on each axis at
// the screen's centre unless the camera stopped at the world's edge there.
func onCameraPath(at [2]float64, d *drawn) bool {
	for i, screen := range []float64{width, height} {
		want := d.SelfWorld[i] + d.MapOrigin[i]
		if math.Abs(at[i]-want) > 1 {
			return false
		}
		atEdge := d.MapOrigin[i] >= -1 || d.MapOrigin[i]+worldSize <= screen+1
		if !atEdge && at[i] != screen/2 {
			return false
		}
	}
	return true
}

// checkBodies checks the own player where the camera put it (at the
// screen's centre, or off it towards the world's edge it is near, the
// screen showing none of the void past that edge) in its colour (or the
// death banner), and every other body drawn in the clear in its
// colour at its place; it returns how many other bodies it checked.
func checkBodies(t checker, img image.Image, d *drawn) int {
	t.Helper()
	banner := 0
	for y := bannerRect.Min.Y; y < bannerRect.Max.Y; y++ {
		for x := bannerRect.Min.X; x < bannerRect.Max.X; x++ {
			if near(rgbAt(img, x, y), bannerColor, 6) {
				banner++
			}
		}
	}
	// The own player.
	switch s := d.Self; {
	case !d.SelfShown:
		t.Error("the own player was not drawn")
	case d.MapOrigin[0] > 0 || d.MapOrigin[1] > 0 || d.MapOrigin[0]+worldSize < width || d.MapOrigin[1]+worldSize < height:
		t.Errorf("the world's corner was drawn at %v: the screen shows the void past its edge", d.MapOrigin)
	case !onCameraPath(s.At, d):
		t.Errorf("the own player was drawn at %v, world %v, map origin %v: want the screen's centre, or off it only towards the world's edge", s.At, d.SelfWorld, d.MapOrigin)
	case s.Dead:
		t.Logf("the own player is dead (%d px of the death banner)", banner)
		if banner < 300 {
			t.Errorf("the own player is dead but the death banner has %d px, want at least 300", banner)
		}
	case underPanels(s):
		// Near the world's edge the camera stops and the player walks
		// off the screen's centre, under the network overlay or the HUD,
		// which are drawn over it.
		t.Logf("own body at %v is under the overlay or the HUD: its colour is not looked for", s.At)
	case underMarks(s, d.Over):
		// A bolt the player just fired, or a spark, is drawn over it.
		t.Logf("own body at %v is under a projectile or an effect: its colour is not looked for", s.At)
	default:
		got := cover(img, s, false)
		t.Logf("own body at %v covers %.2f of its disc", s.At, got)
		if got < minPlayerCover {
			t.Errorf("the own player's body (%+v) covers %.2f of its disc, want at least %.2f", s, got, minPlayerCover)
		}
	}

	// Everything else drawn in the clear.
	others := append(append([]drawnBody{d.Self}, d.Players...), d.Creatures...)
	checked := 0
	for i, body := range others[1:] {
		if body.Dead || !inClear(body, others, i+1, d.Over) {
			continue
		}
		want := minPlayerCover
		kind, creature := "player", i >= len(d.Players)
		if creature {
			want, kind = minCreatureCover, "creature"
		}
		got := cover(img, body, creature)
		t.Logf("%-8s at (%4.0f, %4.0f) covers %.2f of its disc (hurt %v)", kind, body.At[0], body.At[1], got, body.Hurt)
		if got < want {
			t.Errorf("%s drawn at (%.0f, %.0f) covers %.2f of its disc in its colour %v, want at least %.2f",
				kind, body.At[0], body.At[1], got, body.Color, want)
		}
		checked++
	}
	t.Logf("%d other bodies were in the clear and checked", checked)
	return checked
}

// underPanels reports whether body overlaps a panel drawn over the world
// (busyRects) or the damage flash's edges.
func underPanels(body drawnBody) bool {
	r := body.Radius + 2
	box := image.Rect(int(body.At[0]-r), int(body.At[1]-r), int(body.At[0]+r)+1, int(body.At[1]+r)+1)
	if !box.In(clearRect) {
		return true
	}
	for _, busy := range busyRects {
		if box.Overlaps(busy) {
			return true
		}
	}
	return false
}

// inClear reports whether bodies[i] lies wholly on screen inside the
// damage flash's edges, clear of the HUD, of every other body (with room for a health bar above it) and of
// every projectile and effect drawn over the bodies.
func inClear(body drawnBody, bodies []drawnBody, i int, over []drawnMark) bool {
	if underPanels(body) {
		return false
	}
	for j, o := range bodies {
		if j != i && math.Hypot(o.At[0]-body.At[0], o.At[1]-body.At[1]) < body.Radius+o.Radius+16 {
			return false
		}
	}
	return !underMarks(body, over)
}

// underMarks reports whether a projectile or effect was drawn over body.
func underMarks(body drawnBody, over []drawnMark) bool {
	for _, m := range over {
		if math.Hypot(m.At[0]-body.At[0], m.At[1]-body.At[1]) < body.Radius+m.Radius {
			return true
		}
	}
	return false
}

// hurtScale is how the game tints a hurt player (game/desktop/draw.go),
// and hurtRing the ring it draws over the body then (colBad): a hurt
// player's disc shows one or the other (measured: 0.39 of the own
// player's disc in the body's tint alone).
var (
	hurtScale = [3]float64{1.8, 0.55, 0.5}
	hurtRing  = [3]float64{0xff, 0x5a, 0x5f}
	noScale   = [3]float64{1, 1, 1}
)

// cover returns the share of body's disc whose pixels show its colour.
// A player's pixel does when it is the player's colour (red-shifted by
// hurtScale when hurt) times a shade k between 0.5 and 1.05, as a light
// grey sprite lit from the top left comes out when the game multiplies it
// by that colour (each channel clipped at 255). A creature's does when it
// is the beetle's green times a shade between 0.5 and 1.2, or, while it is
// hurt, a white-hot flash.
func cover(img image.Image, body drawnBody, creature bool) float64 {
	c := [3]float64{float64(body.Color[0]), float64(body.Color[1]), float64(body.Color[2])}
	scale := [3]float64{1, 1, 1}
	if body.Hurt && !creature {
		scale = hurtScale
	}
	kLo, kHi := 0.5, 1.05
	if creature {
		kHi = 1.2
	}
	cx, cy, r := body.At[0], body.At[1], body.Radius
	var in, match int
	for y := int(cy - r); y <= int(cy+r); y++ {
		for x := int(cx - r); x <= int(cx+r); x++ {
			if math.Hypot(float64(x)+0.5-cx, float64(y)+0.5-cy) > r || !image.Pt(x, y).In(img.Bounds()) {
				continue
			}
			in++
			p := rgbAt(img, x, y)
			if shaded(p, c, scale, kLo, kHi) || (creature && body.Hurt && hot(p)) || (!creature && body.Hurt && shaded(p, hurtRing, noScale, kLo, kHi)) {
				match++
			}
		}
	}
	if in == 0 {
		return 0
	}
	return float64(match) / float64(in)
}

// shaded reports whether p is c times scale times some k in [lo, hi], each
// channel clipped at 255, within a tolerance of 12 per channel.
func shaded(p color.RGBA, c, scale [3]float64, lo, hi float64) bool {
	const tol = 12
	for k := lo; k <= hi+1e-9; k += 0.01 {
		ok := true
		for i, v := range [3]uint8{p.R, p.G, p.B} {
			want := min(c[i]*scale[i]*k, 255)
			if math.Abs(float64(v)-want) > tol {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// hot reports whether p is the white-hot flash of a hurt creature.
func hot(p color.RGBA) bool { return p.R >= 170 && p.G >= 160 && p.B >= 140 && p.R >= p.B }

func rgbAt(img image.Image, x, y int) color.RGBA {
	r, g, b, _ := img.At(x, y).RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 0xff}
}

func near(a, b color.RGBA, tol int) bool {
	d := func(x, y uint8) bool { return int(x)-int(y) <= tol && int(y)-int(x) <= tol }
	return d(a.R, b.R) && d(a.G, b.G) && d(a.B, b.B)
}
