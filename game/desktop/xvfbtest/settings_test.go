package xvfbtest

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// storedSettings mirrors the settings file (game/settings).
type storedSettings struct {
	Version       int     `json:"version"`
	Name          string  `json:"name"`
	MasterVolume  float64 `json:"master_volume"`
	EffectsVolume float64 `json:"effects_volume"`
	Mute          bool    `json:"mute"`
	Fullscreen    bool    `json:"fullscreen"`
	Overlay       bool    `json:"overlay"`
}

// Where the menu and the settings screen draw what the test clicks
// (game/desktop: menu.go's settingsRect, settingsui's layout): the
// settings button, and the effects volume's track (x from 580 to 850).
const (
	settingsButtonX, settingsButtonY = 1198, 31
	// maxNameBytes is the longest name (arena.MaxNameBytes): as many
	// Backspaces clear any.
	maxNameBytes                  = 24
	effectsTrackX0, effectsTrackW = 580, 270
	masterRowY                    = 110 + 70 + 1*54 + 27
	effectsRowY                   = 110 + 70 + 2*54 + 27
)

// TestSettingsScreenSavesAndTheNextRunReadsThem runs the game at the LAN
// menu on its own Xvfb with an empty config folder (XDG_CONFIG_HOME) and
// plays it through XTEST as a player would: clicks "Settings", clears the
// name and types "ada", turns the master volume down four steps with the
// arrow keys and clicks the effects volume's track at a quarter. The
// settings file must then hold exactly that. A second run must start with
// those settings (it says them on stdout at exit), and a third with -name
// must use that name for the run without saving it.
func TestSettingsScreenSavesAndTheNextRunReadsThem(t *testing.T) {
	needXvfb(t)
	bin := gameBinary(t)
	cfg := t.TempDir()
	file := filepath.Join(cfg, "sightline", "settings.json")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	x := startX(t, ctx)
	port := strconv.Itoa(freeUDPPort(t))

	game, out := x.startGame(t, ctx, bin, cfg, t.TempDir(), "-browse", "-lan-port", port, "-fps", "30", "-echo-input")
	x.drive(out)
	exited := make(chan error, 1)
	go func() { exited <- game.Wait() }()
	defer func() {
		game.Process.Signal(syscall.SIGTERM)
		<-exited
		t.Logf("first run's output:\n%s", out.String())
	}()

	ox, oy, w, h := x.gameWindow(t, windowWait)
	t.Logf("%v: the game's window is %dx%d at (%d, %d)", x, w, h, ox, oy)
	if w != width || h != height {
		t.Fatalf("window %dx%d, want %dx%d (the test clicks in logical pixels)", w, h, width, height)
	}
	x.waitLive(t) // the menu's first frame

	read := func() storedSettings {
		var s storedSettings
		if b, err := os.ReadFile(file); err == nil {
			json.Unmarshal(b, &s)
		}
		return s
	}
	// Every press is one the game saw (press, click): each step is done
	// once, and the test waits until the settings file shows it.
	waitSaved := func(what string, done func(storedSettings) bool) {
		t.Helper()
		deadline := time.Now().Add(seenWait)
		for s := read(); !done(s); s = read() {
			if time.Now().After(deadline) {
				t.Fatalf("%s: the settings file holds %+v %v after the game saw the keys", what, s, seenWait)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	x.click(t, ox+settingsButtonX, oy+settingsButtonY) // the settings screen, the name field focused
	for range maxNameBytes {
		x.press(t, symBackSpace) // one character each: more than a name holds
	}
	x.typeText(t, "ada")
	waitSaved("name", func(s storedSettings) bool { return s.Name == "ada" })
	// The master volume with the keys: focus its row (a click on its
	// label), then Left four steps down from 0.8.
	x.click(t, ox+360, oy+masterRowY)
	for range 4 {
		x.press(t, symLeft)
	}
	waitSaved("master volume", func(s storedSettings) bool { return s.MasterVolume == 0.6 })
	// The effects volume with the mouse: a click a quarter along its track.
	x.click(t, ox+effectsTrackX0+effectsTrackW/4, oy+effectsRowY)
	waitSaved("effects volume", func(s storedSettings) bool { return s.EffectsVolume == 0.25 })

	want := storedSettings{Version: 1, Name: "ada", MasterVolume: 0.6, EffectsVolume: 0.25}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var got storedSettings
	if err := json.Unmarshal(b, &got); err != nil || got != want {
		t.Fatalf("settings file %s: %+v (%v), want %+v\n%s", file, got, err, want, b)
	}
	t.Logf("%s:\n%s", file, b)
	x.press(t, symEscape) // back to the menu
	game.Process.Signal(syscall.SIGTERM)
	if err := <-exited; err != nil {
		t.Fatalf("the first run ended with %v", err)
	}
	exited <- nil // for the deferred wait
	if !strings.Contains(out.String(), `menu: settings: name "ada", master 0.60, effects 0.25, mute false`) {
		t.Errorf("the first run did not end with the settings changed:\n%s", out.String())
	}
	saved, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}

	// The second run reads them; the third names the player for its run
	// only.
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, `menu: settings: name "ada", master 0.60, effects 0.25, mute false, fullscreen false, overlay false`},
		{[]string{"-name", "bob"}, `menu: settings: name "bob", master 0.60, effects 0.25, mute false, fullscreen false, overlay false`},
	} {
		args := append([]string{"-browse", "-lan-port", port, "-fps", "20", "-exit-after", "2s"}, tc.args...)
		run := exec.CommandContext(ctx, bin, args...)
		run.Env = x.env(cfg)
		var rout bytes.Buffer
		run.Stdout, run.Stderr = &rout, &rout
		if err := run.Run(); err != nil {
			t.Fatalf("game %v: %v\n%s", tc.args, err, rout.String())
		}
		line := regexp.MustCompile(`(?m)^menu: settings: .*$`).FindString(rout.String())
		if line != tc.want {
			t.Errorf("game %v: %q, want %q\n%s", tc.args, line, tc.want, rout.String())
		}
		if b, err := os.ReadFile(file); err != nil || !bytes.Equal(b, saved) {
			t.Errorf("game %v changed the settings file:\n%s", tc.args, b)
		}
	}
}

// TestPauseMenuInAMatchInXvfb hosts a private match (no bots, no LAN) on
// its own Xvfb and, through XTEST: Esc opens the pause menu, Down and
// Enter open its settings screen, five Downs reach "Network overlay" and
// Enter turns it on, Esc twice returns to the match, and M mutes there.
// The settings file must then say overlay on and muted, and nothing else
// changed (had Esc not paused, Enter would have opened the chat instead).
// Each key is pressed once the game saw the one before go up
// (-echo-input), so none is lost however slow its frames.
func TestPauseMenuInAMatchInXvfb(t *testing.T) {
	needXvfb(t)
	bin := gameBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	x := startX(t, ctx)
	cfg := t.TempDir()
	file := filepath.Join(cfg, "sightline", "settings.json")
	game, out := x.startGame(t, ctx, bin, cfg, t.TempDir(), "-host", "-addr", "off", "-bots", "0", "-seed", "5", "-fps", "30", "-echo-input")
	x.drive(out)
	defer func() {
		game.Process.Signal(syscall.SIGTERM)
		if err := game.Wait(); err != nil {
			t.Errorf("the game ended with %v; its output:\n%s", err, out.String())
		}
		if strings.Contains(out.String(), "panic:") {
			t.Errorf("the game panicked:\n%s", out.String())
		}
	}()
	ox, oy, _, _ := x.gameWindow(t, windowWait)
	x.waitLive(t) // the match is on screen
	x.fake(t, xMotion, 0, int16(ox+20), int16(oy+20))

	x.press(t, symEscape) // pause menu
	x.press(t, symDown)   // Settings
	x.press(t, symReturn)
	for range 5 {
		x.press(t, symDown) // to "Network overlay"
	}
	x.press(t, symReturn) // on
	x.press(t, symEscape) // the pause menu
	x.press(t, symEscape) // the match
	x.typeText(t, "m")    // mute

	want := storedSettings{Version: 1, MasterVolume: 0.8, EffectsVolume: 0.8, Mute: true, Overlay: true}
	var got storedSettings
	for deadline := time.Now().Add(seenWait); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if b, err := os.ReadFile(file); err == nil && json.Unmarshal(b, &got) == nil && got.Mute {
			break
		}
	}
	if got != want {
		t.Fatalf("settings file: %+v, want %+v; the game's output:\n%s", got, want, out.String())
	}
}
