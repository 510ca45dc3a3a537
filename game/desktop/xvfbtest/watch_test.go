package xvfbtest

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// watchRun is what a spectator's last frame drew.
type watchRun struct {
	SelfShown     bool       `json:"self_shown"`
	Watching      string     `json:"watching"`
	Followed      uint32     `json:"followed"`
	FollowedAt    [2]float64 `json:"followed_at"`
	FollowedShown bool       `json:"followed_shown"`
	MapSeed       uint64     `json:"map_seed"`
}

// `cmd/game -watch URL` watches a server's match of three bots without
// playing: its window follows a bot (the leader), draws it on screen with
// the HUD saying whom it watches, draws no player of its own; the server
// lists a spectator and three players, not four.
func TestWatchAMatchInXvfb(t *testing.T) {
	xvfb := needXvfb(t)
	bin := gameBinary(t)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	base := startServer(t, ctx, 1, "-bots", "3")

	shot := filepath.Join(dir, "watch.png")
	game := exec.CommandContext(ctx, xvfb, "-a", "-s", "-screen 0 1280x720x24", bin, "-watch", base,
		"-fps", "20", "-screenshot", shot, "-exit-after", "2m", "-exit-when", "followed=1")
	game.Dir = dir
	game.Env = append(os.Environ(), "XDG_CONFIG_HOME="+dir)
	var out lockedBuffer
	game.Stdout, game.Stderr = &out, &out
	if err := game.Start(); err != nil {
		t.Fatal(err)
	}
	// While it watches, the server counts a spectator beside its players.
	var listed struct {
		Matches []struct {
			Players    int `json:"players"`
			Spectators int `json:"spectators"`
		} `json:"matches"`
	}
	for deadline := time.Now().Add(matchesWait); ; time.Sleep(200 * time.Millisecond) {
		if resp, err := http.Get(base + "/matches"); err == nil {
			json.NewDecoder(resp.Body).Decode(&listed)
			resp.Body.Close()
			if len(listed.Matches) == 1 && listed.Matches[0].Spectators == 1 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server never listed a spectator: %+v; the game's output:\n%s", listed, out.String())
		}
	}
	if p := listed.Matches[0].Players; p != 3 {
		t.Errorf("with a spectator watching, the server lists %d players, want its 3 bots", p)
	}
	if err := game.Wait(); err != nil || strings.Contains(out.String(), "panic:") {
		t.Fatalf("the game ended with %v; its output:\n%s", err, out.String())
	}
	saveShotFile(t, "SIGHTLINE_WATCH_SHOT_OUT", shot)
	d := readRecord[watchRun](t, filepath.Join(dir, "watch.json"))
	t.Logf("the spectator's last frame: %+v", *d)
	if d.SelfShown {
		t.Error("a spectator drew a player of its own")
	}
	if d.Followed == 0 || !d.FollowedShown || !strings.HasPrefix(d.Watching, "watching ") {
		t.Errorf("followed player %d shown %v, HUD %q: want a bot followed, drawn, and named", d.Followed, d.FollowedShown, d.Watching)
	}
	if x, y := d.FollowedAt[0], d.FollowedAt[1]; x < 0 || x > 1280 || y < 0 || y > 720 {
		t.Errorf("the player followed was drawn at (%.0f, %.0f), off the screen", x, y)
	}
	if d.MapSeed == 0 {
		t.Error("the spectator drew no map")
	}
}
