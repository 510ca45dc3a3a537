package xvfbtest

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sightline-game/sightline/internal/matchrec"
)

// The LAN menu lists the recent replays of matches hosted here (the
// config folder's replays, where cmd/game -host records them) after "Host
// a match here", and Enter on one plays it: a replay written there is
// listed, chosen with Down and Enter, and played with every tick verified.
func TestReplayFromTheMenuInXvfb(t *testing.T) {
	needXvfb(t)
	bin := gameBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cfg := t.TempDir()
	dir := filepath.Join(cfg, "sightline", "replays")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := matchrec.Record(matchrec.Config{Players: 3, Ticks: 20 * matchrec.TickRate, FragmentTicks: 90, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "match-20261206-040700.slreplay"), b, 0o644); err != nil {
		t.Fatal(err)
	}

	x := startX(t, ctx)
	port := strconv.Itoa(freeUDPPort(t))
	game, out := x.startGame(t, ctx, bin, cfg, t.TempDir(), "-browse", "-lan-port", port, "-fps", "30", "-echo-input",
		"-exit-after", "3m", "-exit-when", "replayed=120")
	x.drive(out)
	x.gameWindow(t, windowWait)
	x.waitLive(t)
	x.press(t, symDown)   // from "Host a match here" to the replay
	x.press(t, symReturn) // play it
	if err := game.Wait(); err != nil || strings.Contains(out.String(), "panic:") {
		t.Fatalf("the game ended with %v; its output:\n%s", err, out.String())
	}
	said := lastLine(grepLines(out.String(), "replay: played"))
	if !strings.HasPrefix(said, "replay: played 1") || !strings.Contains(said, ", 0 mismatched; the game verified") ||
		!strings.HasSuffix(strings.SplitN(said, "; at tick", 2)[0], ", 0 mismatched") {
		t.Fatalf("on exit the game said %q, want a replay played from the menu, 0 mismatched twice; its output:\n%s", said, out.String())
	}
}
