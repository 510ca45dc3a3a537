package xvfbtest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/internal/matchrec"
	"github.com/sightline-game/sightline/netcode/broadcast"
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
// swapped in), goes up to 2x (] three times), pauses (P), moves on to the
// next player (Space: a watch event the Cast answers), seeks (Period),
// flies the free camera (F, then Right, which must not seek), seeks again
// (Period), resumes (P) and plays until it delivered replayPlayed ticks.
// Every tick its clients decoded matched the broadcast's hash, by the
// window's last frame and by what the game says on exit; the HUD says
// where the replay is and how fast; each seek kept whom or where the
// camera watched.
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
	game, out := x.startGame(t, ctx, bin, dir, dir, "-replay", file, "-replay-speed", "0.25", "-replay-at", "3s",
		"-fps", "30", "-echo-input", "-log-level", "info", "-screenshot", shot, "-exit-after", "3m", "-exit-when", fmt.Sprintf("replayed=%d", replayPlayed))
	x.drive(out)
	x.gameWindow(t, windowWait)
	x.waitLive(t)
	x.press(t, symRight) // 5 s on
	for range 3 {
		x.press(t, symBracketRight) // 0.5x, 1x, 2x
	}
	// Paused, so that no tick is played while the keys go in: the run
	// ends on the ticks played, not on time.
	x.typeText(t, "p")    // pause
	x.press(t, symSpace)  // the next player, as the Cast answers
	x.press(t, symPeriod) // 5 s on, following that player
	x.typeText(t, "f")    // the free camera, flown with WASD or the arrows
	x.press(t, symRight)  // flies: no seek
	x.press(t, symPeriod) // 5 s on, the free camera kept
	x.typeText(t, "p")    // resume
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
	if r.Seeks != 3 || r.Speed != 2 || r.Paused {
		t.Errorf("%d seeks, speed %v, paused %v: want 3 (Right, Period, Period; not Right as the free camera flew), 2x, playing", r.Seeks, r.Speed, r.Paused)
	}
	if min := r.First + 18*matchrec.TickRate; r.Tick < min || r.Tick > r.Last {
		t.Errorf("at tick %d of %d-%d: want past %d (3 s in, then 5 s on three times)", r.Tick, r.First, r.Last, min)
	}
	if !strings.HasPrefix(r.Line, "replay 0:") || !strings.Contains(r.Line, " / 0:3") || !strings.HasSuffix(r.Line, "  2x") {
		t.Errorf("the HUD says %q, want \"replay 0:SS / 0:3S  2x\"", r.Line)
	}
	if d.Followed != 0 || d.MapSeed != 7 {
		t.Errorf("following %d (HUD %q) on map %d: want the free camera, kept through the last seek, on map 7", d.Followed, d.Watching, d.MapSeed)
	}
	// It followed a player through the first seek, Space chose another
	// whom the second seek kept, and the third kept the free camera.
	var seeks []string
	seekSaid := regexp.MustCompile(` following=(\d+) free_camera=(\w+)`)
	for _, l := range strings.Split(grepLines(out.String(), "replay: seek"), "\n") {
		if m := seekSaid.FindStringSubmatch(l); m != nil {
			seeks = append(seeks, m[1]+" "+m[2])
		}
	}
	if len(seeks) != 3 || strings.HasPrefix(seeks[0], "0 ") || !strings.HasSuffix(seeks[0], " false") ||
		strings.HasPrefix(seeks[1], "0 ") || seeks[1] != strings.Fields(seeks[1])[0]+" false" || strings.Fields(seeks[1])[0] == strings.Fields(seeks[0])[0] ||
		!strings.HasSuffix(seeks[2], " true") {
		t.Errorf("the seeks were (following, free camera) %q: want 3, following a player, then another (Space), then the free camera", seeks)
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

// `cmd/game -broadcast URL` watches a live broadcast over HTTP (here the
// recorded match's chunks served by the test, a fragment published every
// 3 s as the match would): the window plays it as a spectator, 1.5 s
// behind what it fetched, every tick verified.
func TestBroadcastInXvfb(t *testing.T) {
	needXvfb(t)
	bin := gameBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	dir := t.TempDir()
	b, err := matchrec.Record(matchrec.Config{Players: 3, Ticks: 40 * matchrec.TickRate, FragmentTicks: 90, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	rp, err := broadcast.OpenReplay(b)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	var last uint32
	for i := range rp.Chunks() {
		h, c := rp.Chunk(i)
		files["/broadcast/1/"+broadcast.ChunkPath(h.Kind, h.Number)] = c
		if h.Kind == broadcast.KindDeltas {
			last = h.Number
		}
	}
	start := time.Now()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/broadcast/1/index.json" {
			newest := min(1+uint32(time.Since(start)/(3*time.Second)), last)
			json.NewEncoder(w).Encode(broadcast.Index{Format: broadcast.Version, Protocol: protocol.Version, TickRate: matchrec.TickRate,
				FragmentTicks: 90, Ready: true, Newest: newest, Ended: newest == last})
			return
		}
		c, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(c)
	}))
	defer srv.Close()

	x := startX(t, ctx)
	shot := filepath.Join(dir, "broadcast.png")
	game, out := x.startGame(t, ctx, bin, dir, dir, "-broadcast", srv.URL+"/broadcast/1/",
		"-fps", "30", "-echo-input", "-screenshot", shot, "-exit-after", "3m", "-exit-when", "replayed=200")
	if err := game.Wait(); err != nil || strings.Contains(out.String(), "panic:") {
		t.Fatalf("the game ended with %v; its output:\n%s", err, out.String())
	}
	d := readRecord[replayRun](t, filepath.Join(dir, "broadcast.json"))
	r := d.Replay
	if r == nil {
		t.Fatalf("the last frame drew no broadcast; the game's output:\n%s", out.String())
	}
	t.Logf("the last frame: %+v, %+v", *d, *r)
	if r.Mismatched != 0 || r.CastMismatched != 0 || r.Err != "" || r.Played < 200 || r.Verified != r.Played {
		t.Errorf("played %d ticks, verified %d, mismatched %d (casts: %d), error %q: want 200 or more, all verified, none mismatched",
			r.Played, r.Verified, r.Mismatched, r.CastMismatched, r.Err)
	}
	if !strings.HasPrefix(r.Line, "live broadcast") || d.Followed == 0 || d.MapSeed != 7 {
		t.Errorf("the HUD says %q, following %d on map %d: want a live broadcast, a player followed, map 7", r.Line, d.Followed, d.MapSeed)
	}
}

// A real match server's broadcast and recording, end to end: cmd/server
// -bots 3 -broadcast -record DIR; `cmd/game -broadcast URL` watches its
// match 1 live through its origin, then, the server stopped, `cmd/game
// -replay FILE` plays the file it wrote at 4x; each window verified every
// tick it played, 0 mismatched.
func TestServerBroadcastAndRecordingInXvfb(t *testing.T) {
	xvfb := needXvfb(t)
	bin := gameBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	dir := t.TempDir()
	records := filepath.Join(dir, "replays")
	if err := os.Mkdir(records, 0o755); err != nil {
		t.Fatal(err)
	}
	server := filepath.Join(dir, "server")
	build := exec.Command(goTool(), "build", "-o", server, "./cmd/server")
	build.Dir = moduleRoot(t)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building cmd/server: %v\n%s", err, out)
	}
	addr := freeTCPAddr(t)
	base := "http://" + addr
	srv := exec.CommandContext(ctx, server, "-addr", addr, "-udp-port", strconv.Itoa(freeUDPPort(t)), "-announce=false", "-metrics-addr", "off",
		"-bots", "3", "-broadcast", "-broadcast-delay", "0", "-record", records)
	var srvOut lockedBuffer
	srv.Stdout, srv.Stderr = &srvOut, &srvOut
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			srv.Process.Signal(syscall.SIGTERM)
			srv.Wait()
		}
	}
	defer func() {
		stop()
		if t.Failed() {
			t.Logf("server output:\n%s", srvOut.String())
		}
	}()
	if _, err := waitMatches(ctx, base, func(m map[string]int) bool { return len(m) == 1 }); err != nil {
		t.Fatalf("the server never listed its match: %v", err)
	}

	watch := func(name string, played int, args ...string) *replayRun {
		t.Helper()
		shot := filepath.Join(dir, name+".png")
		args = append([]string{"-a", "-s", "-screen 0 1280x720x24", bin}, args...)
		args = append(args, "-fps", "20", "-screenshot", shot, "-exit-after", "2m", "-exit-when", fmt.Sprintf("replayed=%d", played))
		game := exec.CommandContext(ctx, xvfb, args...)
		game.Dir = dir
		game.Env = append(os.Environ(), "XDG_CONFIG_HOME="+dir)
		var out lockedBuffer
		game.Stdout, game.Stderr = &out, &out
		if err := game.Run(); err != nil || strings.Contains(out.String(), "panic:") {
			t.Fatalf("%s: the game ended with %v; its output:\n%s", name, err, out.String())
		}
		d := readRecord[replayRun](t, filepath.Join(dir, name+".json"))
		if d.Replay == nil {
			t.Fatalf("%s: the last frame drew no replay; the game's output:\n%s", name, out.String())
		}
		r := d.Replay
		t.Logf("%s: %+v; the game said %q", name, *r, lastLine(grepLines(out.String(), "replay: played")))
		if r.Mismatched != 0 || r.CastMismatched != 0 || r.Err != "" || r.Played < uint64(played) || r.Verified != r.Played {
			t.Errorf("%s: played %d ticks, verified %d, mismatched %d (casts: %d), error %q: want %d or more, all verified, none mismatched",
				name, r.Played, r.Verified, r.Mismatched, r.CastMismatched, r.Err, played)
		}
		return d
	}
	live := watch("live", 150, "-broadcast", base+"/broadcast/1/")
	if !strings.HasPrefix(live.Replay.Line, "live broadcast") || live.Followed == 0 {
		t.Errorf("live: the HUD says %q, following %d: want a live broadcast and a bot followed", live.Replay.Line, live.Followed)
	}

	stop() // the recording ends with the match
	files, err := filepath.Glob(filepath.Join(records, "*.slreplay"))
	if err != nil || len(files) != 1 {
		t.Fatalf("replay files %v (%v), want the match's one", files, err)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	rp, err := broadcast.OpenReplay(b)
	if err != nil {
		t.Fatal(err)
	}
	ticks := int(rp.LastTick() - rp.FirstTick() + 1)
	rec := watch("recorded", ticks, "-replay", files[0], "-replay-speed", "4")
	if rec.Replay.Tick != rp.LastTick() || rec.Replay.Speed != 4 {
		t.Errorf("recorded: at tick %d at %vx, want the file's last, %d, at 4x", rec.Replay.Tick, rec.Replay.Speed, rp.LastTick())
	}
}
