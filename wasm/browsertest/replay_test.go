package browsertest

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/sightline-game/sightline/game/web"
	"github.com/sightline-game/sightline/internal/matchrec"
	"github.com/sightline-game/sightline/netcode/broadcast"
	webpage "github.com/sightline-game/sightline/wasm/page"
)

// The browser build plays a replay: ?replay=URL fetches the file with the
// page's fetch (the build links no net/http) and plays it through the
// game's own client on a client.Cast, as the desktop's -replay does. Once
// the page counts wantDecoded ticks, the test drives it with the keys a
// player uses (playWithKeys: pause, 4x, seeks back and on past a keyframe,
// resume) and lets it play to its last tick: every key took effect; every
// tick delivered was verified by the game's client, none mismatched there
// or in the Casts' decoders; no page error; the HUD's line says where the
// replay is.
func TestBrowserPlaysAReplay(t *testing.T) {
	chromium := requireChromium(t)
	dir := t.TempDir()
	wasm, execJS := buildWasm(t, dir)
	site, err := web.New(webpage.Index, execJS, wasm)
	if err != nil {
		t.Fatal(err)
	}
	replay := testReplay(t)
	rp, err := broadcast.OpenReplay(replay)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/", site)
	mux.HandleFunc("/replays/match.slreplay", func(w http.ResponseWriter, _ *http.Request) { w.Write(replay) })
	srv := httptest.NewServer(mux)
	defer srv.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	browser := startBrowser(t, ctx, chromium)
	tb := newTab(t, browser, "replay")
	loaded := time.Now()
	if err := tb.load(srv.URL + "/?replay=/replays/match.slreplay"); err != nil {
		t.Fatal(err)
	}
	st := tb.state(t)
	t.Logf("%s", st)
	if bad := st.problems(wantDecoded); len(bad) > 0 {
		t.Errorf("%s\n  (%s)", strings.Join(bad, "; "), st)
	}
	if !st.Spectating || st.Verified != st.Decoded {
		t.Errorf("spectating %v; the client verified %d of the %d ticks delivered", st.Spectating, st.Verified, st.Decoded)
	}
	secs := int(float64(rp.LastTick()-rp.FirstTick()) / rp.Header.TickRate)
	length := fmt.Sprintf(" / %d:%02d", secs/60, secs%60)
	if s := tb.replay(t); !strings.HasPrefix(s.Replay, "replay 0:") || !strings.Contains(s.Replay, length) || s.First != rp.FirstTick() || s.Last != rp.LastTick() {
		t.Errorf("the page says %+v: want the replay's line (%q), ticks %d to %d", s, length, rp.FirstTick(), rp.LastTick())
	}

	s := playWithKeys(t, tb, rp)
	t.Logf("the page says %+v (%v after it opened)", s, time.Since(loaded).Round(100*time.Millisecond))
	if p := tb.problems(); len(p) > 0 {
		t.Errorf("page errors:\n  %s", strings.Join(p, "\n  "))
	}
	if !s.Ended || s.Tick != rp.LastTick() || !strings.HasSuffix(s.Replay, length+"  4x  ended") || s.ReplayErr != "" {
		t.Errorf("the page says %+v: want the replay ended at tick %d, at 4x (%q), no error", s, rp.LastTick(), length+"  4x  ended")
	}
	if s.Verified != s.Played || s.Mismatched != 0 || s.CastMismatched != 0 || s.CastDecoded < s.Played {
		t.Errorf("played %d ticks, the clients verified %d, %d mismatched; the Casts decoded %d, %d mismatched: want every tick played verified, none mismatched",
			s.Played, s.Verified, s.Mismatched, s.CastDecoded, s.CastMismatched)
	}
}

// testReplay returns the replay the browser plays: a match of bots
// recorded on the memory transport (internal/matchrec), or the file named
// by SIGHTLINE_REPLAY_FILE (say, the 2-minute match of 32 players and 300
// creatures `go run ./cmd/netbench -traffic arena -seconds 120 -record
// FILE` writes).
func testReplay(t *testing.T) []byte {
	t.Helper()
	if f := os.Getenv("SIGHTLINE_REPLAY_FILE"); f != "" {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	start := time.Now()
	b, err := matchrec.Record(testMatch)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("recorded %d players and %d creatures for %d s in %v: %d bytes", testMatch.Players, testMatch.Creatures,
		testMatch.Ticks/matchrec.TickRate, time.Since(start).Round(10*time.Millisecond), len(b))
	return b
}

// testMatch is the match the browser test records and plays: 32 players
// and 300 creatures, the world of the 2-minute match of docs/10-watching.md,
// for 30 s. The whole 2 minutes record in 2-8 s, but with the keys and to
// their end at 4x the test took 63-66 s on a busy machine (software WebGL
// drew 2-15 frames a second there), against 30-50 s for these 30 s: play
// such a file with SIGHTLINE_REPLAY_FILE.
var testMatch = matchrec.Config{Players: 32, Creatures: 300, Ticks: 30 * matchrec.TickRate, FragmentTicks: 90, Seed: 7}

// replayState is what the page says of the replay or broadcast it plays
// (wasm/cast.go).
type replayState struct {
	Replay    string `json:"replay"` // the HUD's line
	ReplayErr string `json:"replayErr"`

	// Tick is the newest tick delivered, of a replay's First to Last.
	Tick   uint32  `json:"replayTick"`
	First  uint32  `json:"replayFirst"`
	Last   uint32  `json:"replayLast"`
	Speed  float64 `json:"replaySpeed"`
	Paused bool    `json:"replayPaused"`
	Ended  bool    `json:"replayEnded"`
	Seeks  int     `json:"seeks"`
	Frames int     `json:"castFrames"` // the game's updates so far

	// Played counts the ticks the Casts delivered (the page's decoded),
	// Verified and Mismatched those the game's clients checked;
	// CastDecoded and CastMismatched the Casts' decoders'.
	Played         uint64 `json:"decoded"`
	Verified       uint64 `json:"verified"`
	Mismatched     uint64 `json:"mismatched"`
	CastDecoded    uint64 `json:"castDecoded"`
	CastMismatched uint64 `json:"castMismatched"`
}

// replay reads what the page says of the replay or broadcast it plays.
func (tb *tab) replay(t *testing.T) replayState {
	t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, browserWait)
	defer cancel()
	rs, err := chromedp.Run(ctx, chromedp.Evaluate[replayState](`({...window.sightline, replayErr: window.sightline.replayErr || ""})`))
	if err != nil {
		t.Fatalf("%s: read window.sightline: %v", tb.name, err)
	}
	return rs
}

// buildWasm puts the browser client, as every test here plays it
// (buildWeb), into dir (game.wasm and wasm_exec.js, uncompressed) and
// returns the two.
func buildWasm(t *testing.T, dir string) (wasm, execJS []byte) {
	t.Helper()
	buildWeb(t, dir, filepath.Join(t.TempDir(), "server"), false)
	wasm, err := os.ReadFile(filepath.Join(dir, web.WasmFile))
	if err != nil {
		t.Fatal(err)
	}
	execJS, err = os.ReadFile(filepath.Join(dir, web.ExecFile))
	if err != nil {
		t.Fatal(err)
	}
	return wasm, execJS
}

// The browser build watches a real server's live broadcast: cmd/server
// -broadcast serves match 1 at /broadcast/1/, and ?broadcast= plays it
// through the page's fetch and the game's own client, every tick
// verified, none mismatched.
func TestBrowserWatchesABroadcast(t *testing.T) {
	chromium := requireChromium(t)
	dir := t.TempDir()
	exe := filepath.Join(t.TempDir(), "server")
	buildWeb(t, dir, exe, false)
	base := startServer(t, exe, dir, "-broadcast", "-broadcast-delay", "0")

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	browser := startBrowser(t, ctx, chromium)
	tb := newTab(t, browser, "broadcast")
	if err := tb.load(base + "/?broadcast=/broadcast/1/"); err != nil {
		t.Fatal(err)
	}
	st := tb.state(t)
	cast := tb.replay(t)
	t.Logf("%s; the page says %+v", st, cast)
	if bad := st.problems(wantDecoded); len(bad) > 0 {
		t.Errorf("%s\n  (%s)", strings.Join(bad, "; "), st)
	}
	if p := tb.problems(); len(p) > 0 {
		t.Errorf("page errors:\n  %s", strings.Join(p, "\n  "))
	}
	if !st.Spectating || st.Verified != st.Decoded || !strings.HasPrefix(cast.Replay, "live broadcast") || cast.ReplayErr != "" || cast.CastMismatched != 0 {
		t.Errorf("spectating %v, verified %d of %d; the page says %+v: want a live broadcast, every tick verified, no error", st.Spectating, st.Verified, st.Decoded, cast)
	}
}
