package xvfbtest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sightline-game/sightline/internal/matchrec"
)

// replayRun is what the last frame of a replay drew.
type replayRun struct {
	Watching string `json:"watching"`
	Followed uint32 `json:"followed"`
	MapSeed  uint64 `json:"map_seed"`
	Replay   *struct {
		Line           string  `json:"line"`
		Tick           uint32  `json:"tick"`
		First          uint32  `json:"first"`
		Last           uint32  `json:"last"`
		Speed          float64 `json:"speed"`
		Paused         bool    `json:"paused"`
		Played         uint64  `json:"played"`
		Decoded        uint64  `json:"decoded"`
		CastMismatched uint64  `json:"cast_mismatched"`
		Verified       uint64  `json:"verified"`
		Mismatched     uint64  `json:"mismatched"`
		Seeks          int     `json:"seeks"`
		Err            string  `json:"err"`
	} `json:"replay"`
}

// replayPlayed is how many ticks the replay run plays before it ends.
const replayPlayed = 500

// `cmd/game -replay FILE` plays a match recorded by the server (four bots
// for 40 s) in the window, as a spectator, through the game's own client:
// started 3 s in at 0.25x, it seeks 5 s on (Right: a new Cast and game
// swapped in), goes up to 2x (] three times), pauses and resumes (P), and
// plays until it delivered replayPlayed ticks. Every tick its clients
// decoded matched the broadcast's hash, by the window's last frame and by
// what the game says on exit; the HUD says where the replay is and how
// fast, and the camera follows a player.
func TestReplayInXvfb(t *testing.T) {
	needXvfb(t)
	bin := gameBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	dir := t.TempDir()
	file := filepath.Join(dir, "match.slreplay")
	b, err := matchrec.Record(matchrec.Config{Players: 4, Ticks: 40 * matchrec.TickRate, FragmentTicks: 90, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}

	x := startX(t, ctx)
	shot := filepath.Join(dir, "replay.png")
	game := exec.CommandContext(ctx, bin, "-replay", file, "-replay-speed", "0.25", "-replay-at", "3s",
		"-fps", "30", "-echo-input", "-screenshot", shot, "-exit-after", "3m", "-exit-when", fmt.Sprintf("replayed=%d", replayPlayed))
	game.Env = x.env(dir)
	game.Dir = dir
	var out lockedBuffer
	game.Stdout, game.Stderr = &out, &out
	game.Cancel = func() error { return game.Process.Signal(syscall.SIGTERM) }
	game.WaitDelay = 5 * time.Second
	if err := game.Start(); err != nil {
		t.Fatal(err)
	}
	x.drive(&out)
	x.gameWindow(t, windowWait)
	x.waitLive(t)
	x.press(t, symRight) // 5 s on
	for range 3 {
		x.press(t, symBracketRight) // 0.5x, 1x, 2x
	}
	x.typeText(t, "pp") // pause, resume
	if err := game.Wait(); err != nil || strings.Contains(out.String(), "panic:") {
		t.Fatalf("the game ended with %v; its output:\n%s", err, out.String())
	}
	saveShotFile(t, "SIGHTLINE_REPLAY_SHOT_OUT", shot)
	d := readRecord[replayRun](t, filepath.Join(dir, "replay.json"))
	r := d.Replay
	if r == nil {
		t.Fatalf("the last frame drew no replay; the game's output:\n%s", out.String())
	}
	t.Logf("the last frame: %+v, %+v", *d, *r)
	if r.Mismatched != 0 || r.CastMismatched != 0 || r.Err != "" {
		t.Errorf("%d ticks mismatched in the game's clients, %d in the casts' decoders, error %q", r.Mismatched, r.CastMismatched, r.Err)
	}
	if r.Played < replayPlayed || r.Verified != r.Played || r.Decoded < r.Played {
		t.Errorf("played %d ticks, the clients verified %d, the casts decoded %d: want %d or more, all verified", r.Played, r.Verified, r.Decoded, replayPlayed)
	}
	if r.Seeks != 1 || r.Speed != 2 || r.Paused {
		t.Errorf("%d seeks, speed %v, paused %v: want 1, 2x, playing", r.Seeks, r.Speed, r.Paused)
	}
	if min := r.First + 8*matchrec.TickRate; r.Tick < min || r.Tick > r.Last {
		t.Errorf("at tick %d of %d-%d: want past %d (3 s in, then 5 s on)", r.Tick, r.First, r.Last, min)
	}
	if !strings.HasPrefix(r.Line, "replay 0:") || !strings.Contains(r.Line, " / 0:3") || !strings.HasSuffix(r.Line, "  2x") {
		t.Errorf("the HUD says %q, want \"replay 0:SS / 0:3S  2x\"", r.Line)
	}
	if d.Followed == 0 || !strings.HasPrefix(d.Watching, "watching ") || d.MapSeed != 7 {
		t.Errorf("following %d (HUD %q) on map %d: want a player followed and named, on map 7", d.Followed, d.Watching, d.MapSeed)
	}
	said := lastLine(grepLines(out.String(), "replay: played"))
	if !strings.Contains(said, ", 0 mismatched; the game verified") || !strings.HasSuffix(strings.SplitN(said, "; at tick", 2)[0], ", 0 mismatched") {
		t.Errorf("on exit the game said %q, want 0 mismatched twice; its output:\n%s", said, out.String())
	}
}

// grepLines returns the lines of s that contain sub, each ending in a newline.
func grepLines(s, sub string) string {
	var b strings.Builder
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}
