package xvfbtest

import (
	"bytes"
	"context"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sightline-game/sightline/game/arena"
)

// killcamRun is what the killcam's last frame drew.
type killcamRun struct {
	MapOrigin [2]float64 `json:"map_origin"`
	Killcam   *struct {
		Phase       string     `json:"phase"`
		Killer      uint32     `json:"killer"`
		Victim      uint32     `json:"victim"`
		EventX      uint16     `json:"event_x"`
		EventY      uint16     `json:"event_y"`
		Behind      uint16     `json:"behind"`
		JudgedWorld [2]float64 `json:"judged_world"`
		JudgedAt    [2]float64 `json:"judged_at"`
		OwnAt       [2]float64 `json:"own_at"`
		OwnShown    bool       `json:"own_shown"`
		Title       string     `json:"title"`
		Verdict     string     `json:"verdict"`
		Verdicts    int        `json:"verdicts"`
	} `json:"killcam"`
}

// A player who dies sees the killcam: `cmd/game -join -autopilot` among
// 8 server bots plays until it is killed, then its window replays the
// kill from the killer's side and holds the fatal moment: the "on their
// screen" marker drawn exactly where the kill event says the server judged
// it (1/8 px units), in the red of the marker's ring on the screenshot,
// the "on your screen" marker from the game's own drawing, a title naming
// the death and the verdict. The screenshot shows the network overlay's
// line on it. With SIGHTLINE_KILLCAM_SHOT_OUT the screenshot is saved
// (docs/killcam.png).
func TestKillcamOnDeathInXvfb(t *testing.T) {
	xvfb := needXvfb(t)
	bin := gameBinary(t)
	// A kill near the world's edge, where the camera stops, can put the
	// marker under the overlay's panel or the killcam's own title: then
	// the player is killed again, in a new match, at most killcamTries
	// times in all.
	for try := 1; ; try++ {
		if killcamOnDeath(t, xvfb, bin) || t.Failed() {
			return
		}
		if try == killcamTries {
			t.Fatalf("in %d kills the judged marker was under the overlay or the title each time", try)
		}
		t.Logf("kill %d: the judged marker is under the overlay's panel or the killcam's title: once more", try)
	}
}

// killcamOnDeath runs the game until its player is killed and checks the
// killcam's last frame. It returns false, having checked all but the
// screenshot's ring, when the judged marker lies under the overlay or the
// killcam's panels.
func killcamOnDeath(t *testing.T, xvfb, bin string) bool {
	t.Helper()
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	base := startServer(t, ctx, 1, "-bots", "8", "-creatures", "0")

	shot := filepath.Join(dir, "killcam.png")
	game := exec.CommandContext(ctx, xvfb, "-a", "-s", "-screen 0 1280x720x24", bin, "-join", base, "-autopilot",
		"-name", "victim", "-overlay", "-fps", "20", "-screenshot", shot, "-exit-after", "6m", "-exit-when", "killcam=8")
	game.Dir = dir
	game.Env = append(os.Environ(), "XDG_CONFIG_HOME="+dir)
	var out lockedBuffer
	game.Stdout, game.Stderr = &out, &out
	if err := game.Run(); err != nil || strings.Contains(out.String(), "panic:") {
		t.Fatalf("the game ended with %v; its output:\n%s", err, out.String())
	}
	d := readRecord[killcamRun](t, filepath.Join(dir, "killcam.json"))
	k := d.Killcam
	if k == nil || k.Phase != "verdict" || k.Verdicts < 8 {
		t.Fatalf("the last frame drew no killcam verdict: %+v (the player was never killed in 6 minutes?)", k)
	}
	t.Logf("the killcam's last frame: %+v", *k)
	if !strings.Contains(k.Title, "you") || k.Verdict == "" {
		t.Errorf("title %q, verdict %q: want the death named and the verdict said", k.Title, k.Verdict)
	}
	// The marker is the event's judged position, exactly (its 1/8 px units).
	if want := [2]float64{float64(k.EventX) / 8, float64(k.EventY) / 8}; k.JudgedWorld != want {
		t.Errorf("the judged marker was drawn at world %v, the kill event says %v", k.JudgedWorld, want)
	}
	// On the screen where that world point is (the map's origin is drawn
	// at whole px).
	jx, jy := k.JudgedAt[0], k.JudgedAt[1]
	if dx, dy := jx-d.MapOrigin[0]-k.JudgedWorld[0], jy-d.MapOrigin[1]-k.JudgedWorld[1]; math.Abs(dx) > 1 || math.Abs(dy) > 1 {
		t.Errorf("the judged marker at screen (%.1f, %.1f) is not its world point (%v from the map's origin %v)", jx, jy, k.JudgedWorld, d.MapOrigin)
	}
	if !k.OwnShown {
		t.Error("no \"on your screen\" marker: the game did not know where it drew its player at the kill")
	}
	// The screenshot has the marker's red ring there: most of 16 points on
	// a circle of the ring's radius are red (of those not under the
	// network overlay's panel, on the left: the killcam shows the killer
	// right of it, but a world's edge may stop the camera).
	img, err := png.Decode(bytes.NewReader(readShot(t, shot)))
	if err != nil {
		t.Fatal(err)
	}
	const ringR = arena.PlayerRadius + 6 // killcamview.go's marker
	// killcamview.go's panels span the screen's middle at the top (title
	// and verdict, from y 24 for 84 px, and the progress bar) and the
	// bottom (the hint, from 46 px above the bottom): a point that high
	// or that low is taken as under them, whatever their width.
	const killcamPanelBottom, killcamHintTop = 24 + 84 + 4, 46
	red, clear := 0, 0
	for i := range 16 {
		a := float64(i) * math.Pi / 8
		x, y := int(math.Round(jx+ringR*math.Cos(a))), int(math.Round(jy+ringR*math.Sin(a)))
		if x < 500 && y < 500 {
			continue // under the overlay's panel
		}
		if y < killcamPanelBottom || y > 720-killcamHintTop {
			continue // under the killcam's title and verdict, or its hint
		}
		clear++
		r, g, b, _ := img.At(x, y).RGBA()
		if r>>8 > 180 && g>>8 < 140 && b>>8 < 140 {
			red++
		}
	}
	if clear < 8 {
		return false
	}
	if red < clear/2+1 {
		t.Errorf("%d of %d points of the judged marker's ring at (%.0f, %.0f) clear of the overlay are red on the screenshot, want most", red, clear, jx, jy)
	}
	saveShotFile(t, "SIGHTLINE_KILLCAM_SHOT_OUT", shot)
	return true
}

// A spectator following the victim sees the killcam, and lag compensation
// in it: `cmd/loadtest -duel` plays an aimer and a strafer over 75 ms each
// way (the aimer draws the strafer in its past and its shots are judged
// there), and `cmd/game -watch -follow 2` follows the strafer. When the
// aimer kills it, the window replays the kill from the aimer's side: the
// kill was judged in the past, the "on their screen" marker exactly where
// the kill event says, the "on the server" marker where the spectator's
// own ticks had the strafer at the kill's tick. With
// SIGHTLINE_KILLCAM_LAG_SHOT_OUT the screenshot is saved
// (docs/killcam-lag.png).
func TestKillcamForASpectatorInXvfb(t *testing.T) {
	xvfb := needXvfb(t)
	bin := gameBinary(t)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	loadtest := filepath.Join(dir, "loadtest")
	build := exec.Command(goTool(), "build", "-o", loadtest, "./cmd/loadtest")
	build.Dir = moduleRoot(t)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building cmd/loadtest: %v\n%s", err, out)
	}
	base := startServer(t, ctx, 1, "-bots", "0", "-creatures", "0")
	duel := exec.CommandContext(ctx, loadtest, "-url", base, "-duel", "-seconds", "300",
		"-latency", "75ms", "-jitter", "10ms")
	var duelOut lockedBuffer
	duel.Stdout, duel.Stderr = &duelOut, &duelOut
	if err := duel.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		duel.Process.Kill()
		duel.Wait()
		if t.Failed() {
			t.Logf("the duel's output:\n%s", duelOut.String())
		}
	})
	// The aimer joins first (player 1), the strafer second (player 2).
	if _, err := waitMatches(ctx, base, func(m map[string]int) bool {
		for _, n := range m {
			return n == 2
		}
		return false
	}); err != nil {
		t.Fatalf("the duel's two players never joined: %v", err)
	}

	shot := filepath.Join(dir, "killcam.png")
	game := exec.CommandContext(ctx, xvfb, "-a", "-s", "-screen 0 1280x720x24", bin, "-watch", base, "-follow", "2",
		"-overlay", "-fps", "20", "-screenshot", shot, "-exit-after", "6m", "-exit-when", "killcam=8")
	game.Dir = dir
	game.Env = append(os.Environ(), "XDG_CONFIG_HOME="+dir)
	var out lockedBuffer
	game.Stdout, game.Stderr = &out, &out
	if err := game.Run(); err != nil || strings.Contains(out.String(), "panic:") {
		t.Fatalf("the game ended with %v; its output:\n%s", err, out.String())
	}
	saveShotFile(t, "SIGHTLINE_KILLCAM_LAG_SHOT_OUT", shot)
	d := readRecord[killcamRun](t, filepath.Join(dir, "killcam.json"))
	k := d.Killcam
	if k == nil || k.Phase != "verdict" {
		t.Fatalf("the last frame drew no killcam verdict: %+v", k)
	}
	t.Logf("the killcam's last frame: %+v", *k)
	if k.Killer != 1 || k.Victim != 2 {
		t.Errorf("killcam of player %d killing %d, want the aimer (1) killing the strafer (2)", k.Killer, k.Victim)
	}
	// Judged in the past: at the aimer's view, or the server's bound on
	// it, or the cap.
	if k.Behind == 0 || !(strings.Contains(k.Verdict, "at their view") || strings.Contains(k.Verdict, "server's bound")) {
		t.Errorf("verdict %q, %d/256 ticks behind: want a kill judged in the aimer's past", k.Verdict, k.Behind)
	}
	if want := [2]float64{float64(k.EventX) / 8, float64(k.EventY) / 8}; k.JudgedWorld != want {
		t.Errorf("the judged marker was drawn at world %v, the kill event says %v", k.JudgedWorld, want)
	}
	if !k.OwnShown || !strings.Contains(k.Verdict, "from where the server had") {
		t.Errorf("no \"on the server\" marker (verdict %q)", k.Verdict)
	}
}
