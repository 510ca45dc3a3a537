package xvfbtest

import (
	"bytes"
	"context"
	"encoding/json"
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
	wallColor   = color.RGBA{0x4a, 0x5b, 0x7a, 0xff}
	floorColor  = color.RGBA{0x1a, 0x1f, 0x29, 0xff}
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
// says it drew (shot.json) is in the picture where it says.
func TestGameDrawsAMatchInXvfb(t *testing.T) {
	xvfb := needXvfb(t)
	root := moduleRoot(t)
	bin := gameBinary(t)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
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
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("screenshot is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != width || b.Dy() != height {
		t.Fatalf("screenshot is %dx%d, want %dx%d", b.Dx(), b.Dy(), width, height)
	}
	if dst := os.Getenv("SIGHTLINE_SCREENSHOT_OUT"); dst != "" {
		if !filepath.IsAbs(dst) {
			dst = filepath.Join(root, dst)
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot saved to %s", dst)
	}
	drawn := readDrawn(t, filepath.Join(dir, "shot.json"))
	checkPicture(t, img, drawn)
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

type drawn struct {
	Self      drawnBody   `json:"self"`
	SelfShown bool        `json:"self_shown"`
	Players   []drawnBody `json:"players"`
	Creatures []drawnBody `json:"creatures"`
}

func readDrawn(t *testing.T, path string) *drawn {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no record of what the frame drew: %v", err)
	}
	var d drawn
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &d
}

// busyRects are where the HUD (with -overlay) draws over the world: the
// status panel and network overlay, the minimap, the kill feed, the round
// clock, the banner and the hints and health bar along the bottom. A body
// there is not checked against the pixels.
var busyRects = []image.Rectangle{
	image.Rect(0, 0, 400, 470),
	image.Rect(1060, 0, 1280, 380),
	image.Rect(560, 0, 720, 80),
	bannerRect,
	image.Rect(0, 610, 1280, 720),
}

var (
	minimapRect = image.Rect(1076, 12, 1268, 204)
	bannerRect  = image.Rect(400, 220, 880, 320) // "YOU DIED" and "respawning..."
	screenRect  = image.Rect(0, 0, width, height)
)

// minCover is the least share of a body's disc that must show its colour
// (plain or flashing hurt): players are a flat disc under a gun and a
// ring, creatures a beetle with legs, eyes and shading.
const (
	minPlayerCover   = 0.25
	minCreatureCover = 0.12
)

// checkPicture checks img against what the game says it drew: the own
// player at the screen's centre in its colour, or the death banner when
// it is dead; every other player and creature drawn clear of the HUD and
// of other bodies in its colour at its place; the own dot on the minimap;
// many colors; wall, floor and HUD text.
func checkPicture(t *testing.T, img image.Image, d *drawn) {
	t.Helper()
	colors := map[color.RGBA]int{}
	var selfOnMinimap, banner int
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := rgbAt(img, x, y)
			colors[c]++
			p := image.Pt(x, y)
			if p.In(minimapRect) && near(c, selfColor, 6) {
				selfOnMinimap++
			}
			if p.In(bannerRect) && near(c, bannerColor, 6) {
				banner++
			}
		}
	}
	t.Logf("%d distinct colors, %d px of the own dot on the minimap; drew %d other players and %d creatures",
		len(colors), selfOnMinimap, len(d.Players), len(d.Creatures))
	if len(colors) < 400 {
		t.Errorf("only %d distinct colors: the frame looks blank", len(colors))
	}
	if selfOnMinimap < 8 {
		t.Errorf("%d pixels of the own player's dot on the minimap, want at least 8", selfOnMinimap)
	}

	// The own player.
	switch s := d.Self; {
	case !d.SelfShown:
		t.Error("the own player was not drawn")
	case s.At != [2]float64{width / 2, height / 2}:
		t.Errorf("the own player was drawn at %v, want the screen's centre", s.At)
	case s.Dead:
		t.Logf("the own player is dead (%d px of the death banner)", banner)
		if banner < 300 {
			t.Errorf("the own player is dead but the death banner has %d px, want at least 300", banner)
		}
	default:
		got := cover(img, s)
		t.Logf("own body at the centre covers %.2f of its disc", got)
		if got < minPlayerCover {
			t.Errorf("the own player's body (%+v) covers %.2f of its disc, want at least %.2f", s, got, minPlayerCover)
		}
	}

	// Everything else drawn in the clear.
	others := append(append([]drawnBody{d.Self}, d.Players...), d.Creatures...)
	checked := 0
	for i, body := range others[1:] {
		if body.Dead || !inClear(body, others, i+1) {
			continue
		}
		want := minPlayerCover
		kind := "player"
		if i >= len(d.Players) {
			want, kind = minCreatureCover, "creature"
		}
		got := cover(img, body)
		t.Logf("%-8s at (%4.0f, %4.0f) covers %.2f of its disc", kind, body.At[0], body.At[1], got)
		if got < want {
			t.Errorf("%s drawn at (%.0f, %.0f) covers %.2f of its disc in its colour %v, want at least %.2f",
				kind, body.At[0], body.At[1], got, body.Color, want)
		}
		checked++
	}
	t.Logf("%d other bodies were in the clear and checked", checked)

	for _, want := range []struct {
		name string
		c    color.RGBA
		min  int
	}{
		{"wall", wallColor, 2000},
		{"floor", floorColor, 20000},
		{"HUD text", textColor, 300},
	} {
		n := 0
		for c, k := range colors {
			if near(c, want.c, 6) {
				n += k
			}
		}
		t.Logf("%-10s %6d px", want.name, n)
		if n < want.min {
			t.Errorf("%d pixels of the %s color %v, want at least %d", n, want.name, want.c, want.min)
		}
	}
}

// inClear reports whether bodies[i] lies wholly on screen, clear of the
// HUD and of every other body (with room for a health bar above it).
func inClear(body drawnBody, bodies []drawnBody, i int) bool {
	r := body.Radius + 2
	box := image.Rect(int(body.At[0]-r), int(body.At[1]-r), int(body.At[0]+r)+1, int(body.At[1]+r)+1)
	if !box.In(screenRect) {
		return false
	}
	for _, busy := range busyRects {
		if box.Overlaps(busy) {
			return false
		}
	}
	for j, o := range bodies {
		if j != i && math.Hypot(o.At[0]-body.At[0], o.At[1]-body.At[1]) < body.Radius+o.Radius+16 {
			return false
		}
	}
	return true
}

// cover returns the share of body's disc whose pixels show its colour,
// plain or as a hurt body flashes it (game/desktop/draw.go's hurtTint).
func cover(img image.Image, body drawnBody) float64 {
	plain := color.RGBA{body.Color[0], body.Color[1], body.Color[2], 0xff}
	scale := func(v uint8, k float64) uint8 { return uint8(min(float64(v)*k+0.5, 255)) }
	hurt := color.RGBA{scale(plain.R, 1.8), scale(plain.G, 0.55), scale(plain.B, 0.5), 0xff}
	cx, cy, r := body.At[0], body.At[1], body.Radius
	var in, match int
	for y := int(cy - r); y <= int(cy+r); y++ {
		for x := int(cx - r); x <= int(cx+r); x++ {
			if math.Hypot(float64(x)+0.5-cx, float64(y)+0.5-cy) > r || !image.Pt(x, y).In(img.Bounds()) {
				continue
			}
			in++
			if c := rgbAt(img, x, y); near(c, plain, 6) || near(c, hurt, 6) {
				match++
			}
		}
	}
	if in == 0 {
		return 0
	}
	return float64(match) / float64(in)
}

func rgbAt(img image.Image, x, y int) color.RGBA {
	r, g, b, _ := img.At(x, y).RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 0xff}
}

func near(a, b color.RGBA, tol int) bool {
	d := func(x, y uint8) bool { return int(x)-int(y) <= tol && int(y)-int(x) <= tol }
	return d(a.R, b.R) && d(a.G, b.G) && d(a.B, b.B)
}
