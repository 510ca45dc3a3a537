package xvfbtest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sightline-game/sightline/game/desktop/clipboard"
)

// joinHintRun is what a host's frame says of how others join.
type joinHintRun struct {
	Killcam       *struct{} `json:"killcam"` // the frame was the killcam's, which has no HUD
	JoinHint      string    `json:"join_hint"`
	Paused        bool      `json:"paused"`
	PauseJoinHint []string  `json:"pause_join_hint"`
	PauseCopy     string    `json:"pause_copy"`
}

// TestHostShowsItsInviteLinkInXvfb runs a relay with its rendezvous on
// loopback and hosts a match through it (-invite) on an Xvfb of its own,
// as a player who has put the how-to-play card away.
// Once the host has its invite link, Esc opens the pause menu: the frame
// then shows the link in the HUD's status line and, whole, under the
// pause menu. "Copy join link" there puts the link on the X clipboard,
// which another program reads back, and the menu says it was copied.
func TestHostShowsItsInviteLinkInXvfb(t *testing.T) {
	needXvfb(t)
	bin := gameBinary(t)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()

	relay := filepath.Join(dir, "relay")
	build := exec.Command(goTool(), "build", "-o", relay, "./cmd/relay")
	build.Dir = moduleRoot(t)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building cmd/relay: %v\n%s", err, out)
	}
	secret := filepath.Join(dir, "relay.secret")
	if out, err := exec.Command(relay, "-new-secret", secret).CombinedOutput(); err != nil {
		t.Fatalf("relay -new-secret: %v\n%s", err, out)
	}
	rendezvous := freeTCPAddr(t)
	rel := exec.CommandContext(ctx, relay, "-secret", secret, "-public-ip", "127.0.0.1", "-addr", "127.0.0.1:0",
		"-metrics-addr", "", "-http", rendezvous, "-web", filepath.Join(dir, "no-web"))
	var relOut lockedBuffer
	rel.Stdout, rel.Stderr = &relOut, &relOut
	if err := rel.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		rel.Process.Kill()
		rel.Wait()
		if t.Failed() {
			t.Logf("relay output:\n%s", relOut.String())
		}
	}()

	// A player who has put the how-to-play card away.
	if err := os.MkdirAll(filepath.Join(dir, "sightline"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sightline", "settings.json"), []byte(`{"version":1,"how_to_play_seen":true}`), 0o644); err != nil {
		t.Fatal(err)
	}

	// The host can be killed as it opens the menu: the last frame is then
	// the killcam's, which draws no HUD, and the game runs again (a new
	// match), at most killcamTries times in all.
	var (
		x      *xServer
		d      *joinHintRun
		invite string
	)
	for try := 1; ; try++ {
		x, invite = startX(t, ctx), ""
		shot := filepath.Join(dir, "host.png")
		game, out := x.startGame(t, ctx, bin, dir, dir, "-host", "-addr", "127.0.0.1:0", "-announce=false", "-invite", "http://"+rendezvous,
			"-bots", "3", "-seed", "9", "-name", "ada", "-fps", "30", "-echo-input",
			"-screenshot", shot, "-exit-after", "2m", "-exit-when", "copied=1")
		x.drive(out)
		x.gameWindow(t, windowWait)
		x.waitLive(t)
		link := regexp.MustCompile(`friends anywhere join with: go run ./cmd/game -join (\S+)`)
		for deadline := time.Now().Add(time.Minute); invite == ""; time.Sleep(100 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("no invite link from the rendezvous; the game's output:\n%s", out.String())
			}
			if m := link.FindStringSubmatch(out.String()); m != nil {
				invite = m[1]
			}
		}
		// Esc opens the pause menu; "Copy join link" is its fourth item, and
		// the run ends once the menu says what became of the copy (-exit-when
		// copied=1): the release of Enter is never seen.
		x.press(t, symEscape)
		for range 3 {
			x.press(t, symDown)
		}
		enter, name := x.keyCode(t, symReturn)
		x.down(t, xKeyPress, enter, "input: key "+name+" down")
		x.fake(t, xKeyRelease, enter, 0, 0)
		if err := game.Wait(); err != nil || strings.Contains(out.String(), "panic:") {
			t.Fatalf("the game ended with %v; its output:\n%s", err, out.String())
		}
		saveShotFile(t, "SIGHTLINE_HOST_SHOT_OUT", shot)
		d = readRecord[joinHintRun](t, filepath.Join(dir, "host.json"))
		if d.Killcam == nil {
			break
		}
		if try == killcamTries {
			t.Fatalf("the host was in its killcam as it copied the link in each of %d runs", try)
		}
		t.Logf("run %d: the host was in its killcam as it copied the link; running the game again", try)
	}
	t.Logf("invite %s; status line %q; under the pause menu %q", invite, d.JoinHint, d.PauseJoinHint)
	if !d.Paused {
		t.Error("the last frame shows no pause menu")
	}
	if want := "copied: " + invite; d.PauseCopy != want {
		t.Errorf("the pause menu says %q, want %q", d.PauseCopy, want)
	}
	// The clipboard's owner (the clipboard program the game started) keeps
	// serving it after the game has ended.
	t.Setenv("DISPLAY", x.display)
	rctx, rcancel := context.WithTimeout(ctx, 2*time.Minute) // a hang guard
	defer rcancel()
	if got, err := clipboard.Read(rctx); err != nil || got != invite {
		t.Errorf("the X clipboard holds %q (%v), want the invite link %s", got, err, invite)
	}
	if !strings.Contains(d.JoinHint, invite) {
		t.Errorf("the HUD's status line %q lacks the invite link %s", d.JoinHint, invite)
	}
	if whole := strings.Join(d.PauseJoinHint, " "); !strings.Contains(whole, invite) || whole != d.JoinHint {
		t.Errorf("under the pause menu %q, want the whole status line %q with the invite link %s", d.PauseJoinHint, d.JoinHint, invite)
	}
}
