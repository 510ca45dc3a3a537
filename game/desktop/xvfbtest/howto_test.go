package xvfbtest

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// cardRun is what a timed run of a match says of the "how to play" card.
type cardRun struct {
	HowToPlay   bool       `json:"how_to_play"`
	HowToPlayAt [4]float64 `json:"how_to_play_at"`
}

// TestHowToPlayCardInXvfb plays a player's first matches with a fresh
// settings folder: the first match shows the card (its frame in the
// screenshot: the blue edge along its top and its text); keys pressed
// through XTEST in a second run dismiss it, which the settings file then
// says (how_to_play_seen); a third run shows no card, and a fourth with
// -how-to-play shows it again.
func TestHowToPlayCardInXvfb(t *testing.T) {
	xvfb := needXvfb(t)
	bin := gameBinary(t)
	cfg := t.TempDir()
	file := filepath.Join(cfg, "sightline", "settings.json")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	shoot := func(name string, args ...string) (cardRun, image.Image) {
		t.Helper()
		shot := filepath.Join(t.TempDir(), name+".png")
		args = append([]string{"-a", "-s", "-screen 0 1280x720x24", bin, "-host", "-addr", "off", "-bots", "2", "-seed", "7",
			"-name", "ada", "-fps", "30", "-screenshot", shot, "-exit-after", "3s"}, args...)
		run := exec.CommandContext(ctx, xvfb, args...)
		run.Dir = t.TempDir()
		run.Env = append(os.Environ(), "XDG_CONFIG_HOME="+cfg)
		var out bytes.Buffer
		run.Stdout, run.Stderr = &out, &out
		if err := run.Run(); err != nil || strings.Contains(out.String(), "panic:") {
			t.Fatalf("%s: game under xvfb-run: %v\n%s", name, err, out.String())
		}
		b, err := os.ReadFile(shot)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if name == "first" {
			saveShot(t, "SIGHTLINE_HOWTO_SHOT_OUT", b)
		}
		return *readRecord[cardRun](t, strings.TrimSuffix(shot, ".png")+".json"), img
	}

	first, img := shoot("first")
	if !first.HowToPlay {
		t.Fatal("a fresh settings folder: the first match shows no how-to-play card")
	}
	checkCard(t, img, first.HowToPlayAt)
	if b, err := os.ReadFile(file); err == nil && strings.Contains(string(b), `"how_to_play_seen": true`) {
		t.Fatalf("the card was not dismissed, yet the settings say it was seen:\n%s", b)
	}

	dismiss(t, ctx, bin, cfg, file)

	if again, _ := shoot("again"); again.HowToPlay {
		t.Error("after the card was dismissed, the next match shows it again")
	}
	forced, img := shoot("forced", "-how-to-play")
	if !forced.HowToPlay {
		t.Error("-how-to-play: the card is not shown")
	} else {
		checkCard(t, img, forced.HowToPlayAt)
	}
}

// checkCard checks the card's frame in img at at (x, y, w, h): the player's
// blue along its top edge, and text in it.
func checkCard(t *testing.T, img image.Image, at [4]float64) {
	t.Helper()
	x, y, w, h := int(at[0]), int(at[1]), int(at[2]), int(at[3])
	if w < 400 || h < 200 || x < 0 || y < 0 || x+w > width || y+h > height {
		t.Fatalf("the card at %v: not a card on the screen", at)
	}
	edge, ink := 0, 0
	for px := x + 2; px < x+w-2; px++ {
		if near(rgbAt(img, px, y), selfColor, 8) {
			edge++
		}
	}
	for py := y + 2; py < y+h-2; py++ {
		for px := x + 2; px < x+w-2; px++ {
			if near(rgbAt(img, px, py), textColor, 8) {
				ink++
			}
		}
	}
	t.Logf("the card at %v: %d px of its blue top edge, %d px of text", at, edge, ink)
	if edge < (w-4)*9/10 {
		t.Errorf("the card's top edge has %d px of the player's blue, want at least %d", edge, (w-4)*9/10)
	}
	if ink < 3000 {
		t.Errorf("the card holds %d px of text, want at least 3000", ink)
	}
}

// dismiss plays a match on an Xvfb of its own with the settings in cfg and
// presses Z (which plays nothing) through XTEST, each once the game saw the
// one before, until the settings file says the card was seen.
func dismiss(t *testing.T, ctx context.Context, bin, cfg, file string) {
	t.Helper()
	x := startX(t, ctx)
	game, out := x.startGame(t, ctx, bin, cfg, t.TempDir(), "-host", "-addr", "off", "-bots", "0", "-seed", "5", "-fps", "30", "-echo-input")
	x.drive(out)
	defer func() {
		game.Process.Signal(syscall.SIGTERM)
		if err := game.Wait(); err != nil {
			t.Errorf("the game ended with %v; its output:\n%s", err, out.String())
		}
	}()
	x.gameWindow(t, windowWait)
	x.waitLive(t)
	var s struct {
		Seen bool `json:"how_to_play_seen"`
	}
	presses := 0
	for deadline := time.Now().Add(time.Minute); !s.Seen; presses++ {
		if time.Now().After(deadline) {
			t.Fatalf("%d presses did not dismiss the card; the game's output:\n%s", presses, out.String())
		}
		x.typeText(t, "z")
		if b, err := os.ReadFile(file); err == nil {
			json.Unmarshal(b, &s)
		}
	}
	t.Logf("the card went at press %d", presses)
}
