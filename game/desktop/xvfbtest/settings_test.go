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
	effectsTrackX0, effectsTrackW    = 580, 270
	effectsRowY                      = 110 + 70 + 2*54 + 27
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
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	x := startX(t, ctx)
	port := strconv.Itoa(freeUDPPort(t))

	game := exec.CommandContext(ctx, bin, "-browse", "-lan-port", port, "-fps", "30")
	game.Env = x.env(cfg)
	game.Dir = t.TempDir()
	var out lockedBuffer
	game.Stdout, game.Stderr = &out, &out
	game.Cancel = func() error { return game.Process.Signal(syscall.SIGTERM) }
	game.WaitDelay = 5 * time.Second
	if err := game.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- game.Wait() }()
	defer func() {
		game.Process.Signal(syscall.SIGTERM)
		<-exited
		t.Logf("first run's output:\n%s", out.String())
	}()

	ox, oy, w, h := x.gameWindow(t, 60*time.Second)
	t.Logf("%v: the game's window is %dx%d at (%d, %d)", x, w, h, ox, oy)
	if w != width || h != height {
		t.Fatalf("window %dx%d, want %dx%d (the test clicks in logical pixels)", w, h, width, height)
	}
	time.Sleep(time.Second) // the first frames

	x.click(t, ox+settingsButtonX, oy+settingsButtonY) // the settings screen, the name field focused
	time.Sleep(300 * time.Millisecond)
	x.holdKey(t, symBackSpace, 3*time.Second) // repeats: more than a name holds
	x.typeText(t, "ada")
	x.press(t, symDown) // master volume
	for range 4 {
		x.press(t, symLeft)
	}
	x.click(t, ox+effectsTrackX0+effectsTrackW/4, oy+effectsRowY)

	want := storedSettings{Version: 1, Name: "ada", MasterVolume: 0.6, EffectsVolume: 0.25}
	var got storedSettings
	deadline := time.Now().Add(20 * time.Second)
	for {
		b, err := os.ReadFile(file)
		if err == nil && json.Unmarshal(b, &got) == nil && got == want {
			t.Logf("%s:\n%s", file, b)
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("settings file %s: %+v (%v), want %+v", file, got, err, want)
		}
		time.Sleep(200 * time.Millisecond)
	}
	x.press(t, symEscape) // back to the menu
	time.Sleep(300 * time.Millisecond)
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
