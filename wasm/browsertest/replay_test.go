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
// game's own client on a client.Cast, as the desktop's -replay does: the
// page counts wantDecoded ticks and more, every one verified by the game's
// client, none mismatched there or in the Cast's decoder, and the HUD's
// line says where the replay is.
func TestBrowserPlaysAReplay(t *testing.T) {
	chromium := requireChromium(t)
	dir := t.TempDir()
	wasm, execJS := buildWasm(t, dir)
	site, err := web.New(webpage.Index, execJS, wasm)
	if err != nil {
		t.Fatal(err)
	}
	// SIGHTLINE_REPLAY_FILE plays that replay instead (say, the 2-minute
	// match of 32 players and 300 creatures netbench -record writes).
	replay, err := matchrec.Record(matchrec.Config{Players: 4, Ticks: 30 * matchrec.TickRate, FragmentTicks: 90, Seed: 7})
	if f := os.Getenv("SIGHTLINE_REPLAY_FILE"); f != "" {
		replay, err = os.ReadFile(f)
	}
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
	if err := tb.load(srv.URL + "/?replay=/replays/match.slreplay"); err != nil {
		t.Fatal(err)
	}
	st := tb.state(t)
	t.Logf("%s", st)
	if bad := st.problems(wantDecoded); len(bad) > 0 {
		t.Errorf("%s\n  (%s)", strings.Join(bad, "; "), st)
	}
	if p := tb.problems(); len(p) > 0 {
		t.Errorf("page errors:\n  %s", strings.Join(p, "\n  "))
	}
	if !st.Spectating || st.Verified != st.Decoded {
		t.Errorf("spectating %v; the client verified %d of the %d ticks delivered", st.Spectating, st.Verified, st.Decoded)
	}
	cast := tb.castState(t)
	t.Logf("the page says %+v", cast)
	rp, err := broadcast.OpenReplay(replay)
	if err != nil {
		t.Fatal(err)
	}
	secs := (rp.LastTick() - rp.FirstTick()) / matchrec.TickRate
	length := fmt.Sprintf(" / %d:%02d", secs/60, secs%60)
	if !strings.HasPrefix(cast.Replay, "replay 0:") || !strings.Contains(cast.Replay, length) || cast.ReplayErr != "" || cast.CastMismatched != 0 {
		t.Errorf("the page says %+v: want the replay's line (%q), no error, 0 mismatched", cast, length)
	}
}

// castState is what the page says of the replay it plays.
type castState struct {
	Replay         string `json:"replay"`
	ReplayErr      string `json:"replayErr"`
	CastMismatched uint64 `json:"castMismatched"`
}

// castState reads what the page says of the replay or broadcast it plays.
func (tb *tab) castState(t *testing.T) castState {
	t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, browserWait)
	defer cancel()
	cs, err := chromedp.Run(ctx, chromedp.Evaluate[castState](`({replay: window.sightline.replay, replayErr: window.sightline.replayErr || "", castMismatched: window.sightline.castMismatched})`))
	if err != nil {
		t.Fatalf("%s: read window.sightline: %v", tb.name, err)
	}
	return cs
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
	cast := tb.castState(t)
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
