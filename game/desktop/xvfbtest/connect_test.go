package xvfbtest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sightline-game/sightline/internal/testnet"
)

// connectRun is what a frame of the connecting screen (or of the match
// joined) said of the join.
type connectRun struct {
	ConnectStage  string `json:"connect_stage"`
	ConnectStages []struct {
		Stage  string  `json:"stage"`
		Detail string  `json:"detail"`
		Ms     float64 `json:"ms"`
	} `json:"connect_stages"`
	ConnectError string `json:"connect_error"`
	Draws        int    `json:"draws"`
}

func (r *connectRun) names() []string {
	var out []string
	for _, s := range r.ConnectStages {
		out = append(out, s.Stage)
	}
	return out
}

// The stages of a join, as the frame's JSON names them.
const (
	stICEServers = "ice servers"
	stOffer      = "offer sent"
	stAnswer     = "answer received"
	stChecks     = "ice checks"
	stConnected  = "ice connected"
	stChannels   = "channels open"
	stSnapshot   = "first snapshot"
)

// joinRun runs the game joining target under an Xvfb of its own with args
// until it exits by itself (-exit-after, -exit-when), and returns what its
// last frame said of the join (the screenshot's JSON beside shot) and its
// exit error.
func joinRun(t *testing.T, ctx context.Context, target, shot string, args ...string) (*connectRun, error) {
	t.Helper()
	bin := gameBinary(t)
	dir := filepath.Dir(shot)
	x := startX(t, ctx)
	args = append([]string{"-join", target, "-fps", "20", "-screenshot", shot}, args...)
	game := exec.CommandContext(ctx, bin, args...)
	game.Env = x.env(dir)
	game.Dir = dir
	var out lockedBuffer
	game.Stdout, game.Stderr = &out, &out
	game.Cancel = func() error { return game.Process.Signal(syscall.SIGTERM) }
	game.WaitDelay = 5 * time.Second
	err := game.Run()
	if strings.Contains(out.String(), "panic:") || ctx.Err() != nil {
		t.Fatalf("the game ended with %v (%v); its output:\n%s", err, ctx.Err(), out.String())
	}
	t.Logf("game output:\n%s", out.String())
	return readRecord[connectRun](t, strings.TrimSuffix(shot, ".png")+".json"), err
}

// copyShot copies a screenshot where SIGHTLINE_CONNECT_SHOTS_OUT says (a
// folder, relative to the module's root), under name.
func copyShot(t *testing.T, shot, name string) {
	t.Helper()
	if dir := os.Getenv("SIGHTLINE_CONNECT_SHOTS_OUT"); dir != "" {
		writeShot(t, filepath.Join(dir, name), readShot(t, shot))
	}
}

// The window opens at once on the connecting screen, which shows each
// stage of the join as it is reached and, when the join fails, names the
// likely cause: a closed port cannot be reached; a server that answers
// the offer but whose UDP never gets through (testnet.BlackHole) fails
// ICE, and the message names UDP, its port and -public-ip. Mid-way, the
// screen shows the ICE checks with the path tried. A join that works
// reaches every stage, the first snapshot last. Only what holds at any
// speed is checked: the stages reached, in order, and the words shown.
func TestConnectingScreenInXvfb(t *testing.T) {
	needXvfb(t)
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute) // a guard against a hang
	defer cancel()

	t.Run("closed port", func(t *testing.T) {
		target := fmt.Sprintf("127.0.0.1:%d", testnet.FreePort(t, "tcp"))
		shot := filepath.Join(t.TempDir(), "unreachable.png")
		r, err := joinRun(t, ctx, target, shot, "-exit-when", "failed=1", "-exit-after", "5m")
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 1 {
			t.Errorf("the game exited with %v, want exit code 1 for a failed join", err)
		}
		if got, want := r.names(), []string{stICEServers, stOffer}; !slices.Equal(got, want) {
			t.Errorf("stages shown %q, want %q", got, want)
		}
		for _, w := range []string{"Cannot reach the server at http://" + target, "HOST:PORT", "running"} {
			if !strings.Contains(r.ConnectError, w) {
				t.Errorf("the failure shown %q lacks %q", r.ConnectError, w)
			}
		}
	})

	t.Run("udp dropped", func(t *testing.T) {
		bh := testnet.NewBlackHole(t)
		shot := filepath.Join(t.TempDir(), "ice.png")
		r, err := joinRun(t, ctx, bh.URL, shot, "-ice-timeout", "2s", "-exit-when", "failed=1", "-exit-after", "5m")
		if err == nil {
			t.Error("the game exited 0 after a failed join")
		}
		if got, want := r.names(), []string{stICEServers, stOffer, stAnswer, stChecks}; !slices.Equal(got, want) {
			t.Errorf("stages shown %q, want %q", got, want)
		}
		for _, w := range []string{"ICE failed", "UDP", "8443", "-udp-port", "-public-ip", "relay", "invite link"} {
			if !strings.Contains(r.ConnectError, w) {
				t.Errorf("the failure shown %q lacks %q", r.ConnectError, w)
			}
		}
		copyShot(t, shot, "connect-failed.png")
	})

	t.Run("mid-way", func(t *testing.T) {
		bh := testnet.NewBlackHole(t)
		shot := filepath.Join(t.TempDir(), "checks.png")
		// The screenshot is taken at the first frame showing the ICE
		// checks, which go on until -ice-timeout.
		r, err := joinRun(t, ctx, bh.URL, shot, "-ice-timeout", "5m", "-exit-when", "stages=4", "-exit-after", "5m")
		if err != nil {
			t.Errorf("the game exited with %v, want 0 (no failure yet)", err)
		}
		if got, want := r.names(), []string{stICEServers, stOffer, stAnswer, stChecks}; !slices.Equal(got, want) {
			t.Errorf("stages shown %q, want %q", got, want)
		}
		if r.ConnectStage != stChecks || r.ConnectError != "" {
			t.Errorf("the frame shows stage %q and failure %q, want %q and none", r.ConnectStage, r.ConnectError, stChecks)
		}
		if d := r.ConnectStages[len(r.ConnectStages)-1].Detail; d != "host" {
			t.Errorf("the ICE checks try %q, want host", d)
		}
		copyShot(t, shot, "connecting.png")
	})

	t.Run("joins", func(t *testing.T) {
		dir := t.TempDir()
		base := startServer(t, ctx, 1, "-bots", "1")
		shot := filepath.Join(dir, "joined.png")
		// As a player types it: -join 127.0.0.1:PORT, without http://.
		r, err := joinRun(t, ctx, strings.TrimPrefix(base, "http://"), shot, "-exit-after", "1s")
		if err != nil {
			t.Errorf("the game exited with %v", err)
		}
		want := []string{stICEServers, stOffer, stAnswer, stChecks, stConnected, stChannels, stSnapshot}
		if got := r.names(); !slices.Equal(got, want) {
			t.Errorf("the match's frame says the join went through %q, want %q", got, want)
		}
		if r.ConnectError != "" || r.Draws == 0 {
			t.Errorf("the match's frame: failure %q, %d draws of the world", r.ConnectError, r.Draws)
		}
	})
}

// On a failed join, Enter retries (the join fails again, a second time
// in the log) and Esc quits a game started with -join, with exit code 1 and
// the cause on stderr; the keys are driven through XTEST.
func TestConnectingRetryAndQuitInXvfb(t *testing.T) {
	needXvfb(t)
	bin := gameBinary(t)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // a guard against a hang
	defer cancel()
	target := fmt.Sprintf("127.0.0.1:%d", testnet.FreePort(t, "tcp"))
	x := startX(t, ctx)
	game, out := x.startGame(t, ctx, bin, dir, dir, "-join", target, "-fps", "20", "-echo-input")
	x.drive(out)
	x.gameWindow(t, windowWait)
	x.waitLive(t) // the failure is on screen
	failures := func(n int) {
		// -log-level warn: each failure is logged.
		for deadline := time.Now().Add(seenWait); strings.Count(out.String(), `msg="join failed"`) < n; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("no failure %d in the log within %v; the game's output:\n%s", n, seenWait, out.String())
			}
		}
	}
	failures(1)
	x.press(t, symReturn)
	failures(2)
	esc, name := x.keyCode(t, symEscape)
	x.down(t, xKeyPress, esc, "input: key "+name+" down")
	err := game.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(out.String(), "Cannot reach the server at http://"+target) {
		t.Errorf("Esc on the failure: %v, want exit code 1 and the cause; output:\n%s", err, out.String())
	}
}
