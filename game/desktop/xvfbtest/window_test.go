package xvfbtest

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
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
	wallColor     = color.RGBA{0x4a, 0x5b, 0x7a, 0xff}
	floorColor    = color.RGBA{0x1a, 0x1f, 0x29, 0xff}
	selfColor     = color.RGBA{0x3d, 0xd6, 0xff, 0xff}
	creatureColor = color.RGBA{0x8c, 0xc8, 0x3c, 0xff}
	textColor     = color.RGBA{0xec, 0xef, 0xf4, 0xff}
	bannerColor   = color.RGBA{0xff, 0x5a, 0x5f, 0xff} // "YOU DIED"
)

const (
	width, height = 1280, 720
	runFor        = 6 * time.Second
)

// TestGameDrawsAMatchInXvfb builds cmd/game, hosts a match with bots in it
// under Xvfb with a bot steering the player, and checks the screenshot of
// the frame drawn after runFor: the window's size, that it is not blank,
// and that walls, floor, the player, creatures and HUD text are there.
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
	checkPicture(t, img)
}

// Where the HUD covers the world in the test's run (-overlay): the status
// panel and network overlay on the left, the minimap on the right, the
// health bar at the bottom.
var hudRects = []image.Rectangle{
	image.Rect(0, 0, 400, 460),
	image.Rect(1060, 0, 1280, 220),
	image.Rect(0, 660, 320, 720),
}

var (
	minimapRect = image.Rect(1076, 12, 1268, 204)
	bannerRect  = image.Rect(400, 220, 880, 300) // where "YOU DIED" is drawn
)

// playerColors are the own player's and the others' body colors.
var playerColors = []color.RGBA{
	selfColor,
	{0xff, 0x8c, 0x42, 0xff}, {0xff, 0x5d, 0x9e, 0xff}, {0xb3, 0x88, 0xff, 0xff}, {0xff, 0xd1, 0x66, 0xff},
	{0xef, 0x47, 0x6f, 0xff}, {0x5b, 0x8d, 0xff, 0xff}, {0xf7, 0x7f, 0xbe, 0xff}, {0xff, 0xa6, 0x9e, 0xff},
}

// checkPicture checks that img looks like a match: many colors; wall, floor
// and creature pixels; players drawn in the world (not under the HUD); the
// own player's dot on the minimap; and HUD text.
func checkPicture(t *testing.T, img image.Image) {
	t.Helper()
	colors := map[color.RGBA]int{}
	var players, selfOnMinimap, banner, redEdge int
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			c := color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8), 0xff}
			colors[c]++
			p := image.Pt(x, y)
			if y == b.Min.Y && int(c.R) > int(c.G)+40 && int(c.R) > int(c.B)+40 {
				redEdge++
			}
			if p.In(minimapRect) && near(c, selfColor, 6) {
				selfOnMinimap++
			}
			if p.In(bannerRect) && near(c, bannerColor, 6) {
				banner++
			}
			if underHUD(p) {
				continue
			}
			for _, pc := range playerColors {
				if near(c, pc, 6) {
					players++
					break
				}
			}
		}
	}
	t.Logf("%d distinct colors, %d player px in the world, %d px of the own dot on the minimap", len(colors), players, selfOnMinimap)
	if len(colors) < 400 {
		t.Errorf("only %d distinct colors: the frame looks blank", len(colors))
	}
	switch {
	case players >= 150:
	case banner >= 300:
		// The own player died just before the screenshot: its body is a
		// faded cross and the death banner is up; the others may be out
		// of view.
		t.Logf("the player is dead in the screenshot (%d px of the death banner)", banner)
	case redEdge >= b.Dx()/2:
		// The own player was hit just before the screenshot: its body
		// flashes red (not its color) along with the screen's edges; the
		// others may be out of view.
		t.Logf("the player is hurt in the screenshot (%d of %d px of the top edge red)", redEdge, b.Dx())
	default:
		t.Errorf("%d pixels of players' colors in the world, want at least 150", players)
	}
	if selfOnMinimap < 8 {
		t.Errorf("%d pixels of the own player's dot on the minimap, want at least 8", selfOnMinimap)
	}
	for _, want := range []struct {
		name string
		c    color.RGBA
		min  int
	}{
		{"wall", wallColor, 2000},
		{"floor", floorColor, 20000},
		{"creature", creatureColor, 30},
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

func underHUD(p image.Point) bool {
	for _, r := range hudRects {
		if p.In(r) {
			return true
		}
	}
	return false
}

func near(a, b color.RGBA, tol int) bool {
	d := func(x, y uint8) bool { return int(x)-int(y) <= tol && int(y)-int(x) <= tol }
	return d(a.R, b.R) && d(a.G, b.G) && d(a.B, b.B)
}
