//go:build js && wasm

// Command wasm is the browser client: the same game as the desktop, joining
// the match served from the page's own origin. Build it with `make web`; the
// match server serves it at /.
//
// The player's settings (name, volumes, mute, network overlay, whether the
// how-to-play card was put away) live in the page's localStorage under
// "sightline.settings"; Esc in the game opens the pause menu and its
// settings screen, which changes and saves them. A player's first match
// opens on the how-to-play card; once the match is on screen
// window.sightline.howToPlay says whether the card is shown. A
// ?name=you in the address names the player for this visit without saving.
// ?match=ID joins that match of a server hosting several (the page puts it
// there when the player chooses from its list; without it the server
// chooses), and window.sightline.match says which was asked for.
// ?replay=URL plays the replay file at URL (same origin: the page's
// fetch) and ?broadcast=URL the live broadcast whose base is URL, as a
// spectator through the game's own client (cast.go; keys as the
// desktop's -replay).
// When the player dies, the killcam replays the kill from the killer's
// side; window.sightline.killcamVerdicts counts the frames that drew its
// verdict, window.sightline.killcam says what the last of them showed, and
// window.sightline.killcamPhase what the last frame drew ("replay",
// "verdict", or "" for no killcam).
// ?watch in the address watches the match without playing (a spectator,
// as cmd/game -watch: Space next player, L leader, K last killer, F free
// camera), and window.sightline.spectating says once the server welcomed
// it as one. ?token=T carries the player's join token to a server that admits only
// invited players (cmd/server -token-key): the offer sends it as
// "Authorization: Bearer T". ?relay=1 sends every datagram through the TURN
// relay the server hands out (for testing a relay). A page served under a
// path (an invite link's, /i/CODE/) joins the server at that path: the
// rendezvous forwards its requests to the host. window.sightline.path says
// which network path the connection took.
//
// The page reads window.sightline for what the client decoded and whether
// it matches the server, and may call window.sightlineConditions(loss,
// latencyMs, jitterMs) to condition the player's own connection. The client
// marks there the phases of its start, in ms from navigation as the page's
// own marks are: goMainMs, setupMs, signallingMs, connectedMs, gameLoopMs,
// firstSnapshotMs, firstWorldDrawMs and firstWorldFrameMs. While it joins,
// the page draws each stage reached with its time (ICE servers fetched,
// offer sent, answer received, ICE checks with the path tried, data
// channels open, first snapshot) from window.sightline.connect, and a
// failed join's likely cause and what to try, with Retry; Cancel stops a
// join under way. ?ice-timeout=5s gives up that soon when no network path
// works after the server answered (by default, at the join's 30 s limit). ?blank=N in the
// address draws nothing for the first N frames, to measure what drawing
// costs the start. ?echo-input=1 appends to window.sightline.input a line
// for each key, mouse button and finger the game saw go down and up
// ("input: touch down"), for tests that drive the page and wait until each
// press was seen (a busy page runs few frames, and a tap shorter than the
// time between two is never seen).
package main

import (
	"context"
	"log/slog"
	"net/url"
	"os"
	"strconv"
	"strings"
	"syscall/js"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/desktop"
	"github.com/sightline-game/sightline/game/desktop/audio"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/game/settings"
	"github.com/sightline-game/sightline/netcode/transport/conditioner"
)

// preparedFunc is the page's function that hands over the connection it
// began beside the download (index.html; browser.Config.Prepared).
const preparedFunc = "sightlinePrepared"

func main() {
	page := js.Global().Get("sightline")
	mark(page, "goMainMs") // the runtime and every package's init are done
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	origin := js.Global().Get("location").Get("origin").String()
	var queryName, match, token string
	relayOnly, echo, watch := false, false, false
	var replayURL, castURL string // ?replay=URL, ?broadcast=URL: play one (cast.go)
	var iceTimeout time.Duration  // ?ice-timeout=5s: give up on ICE that long after the answer
	blank := 0                    // ?blank=N: the first N frames draw nothing (to measure what drawing costs the start)
	maxFPS := 0                   // ?fps=N: draw at most N frames a second (the desktop's -fps), to spare a battery or a CPU
	if u, err := url.Parse(js.Global().Get("location").Get("href").String()); err == nil {
		queryName = u.Query().Get("name")
		match = u.Query().Get(client.MatchQuery)
		token = u.Query().Get("token")
		if token != "" {
			forgetToken(u)
		}
		relayOnly = u.Query().Get("relay") == "1"
		watch = u.Query().Has(protocol.WatchQuery) // ?watch: a spectator
		replayURL, castURL = u.Query().Get("replay"), u.Query().Get("broadcast")
		blank, _ = strconv.Atoi(u.Query().Get("blank"))
		maxFPS, _ = strconv.Atoi(u.Query().Get("fps"))
		echo = u.Query().Get("echo-input") == "1"
		iceTimeout, _ = time.ParseDuration(u.Query().Get("ice-timeout"))
		origin = baseURL(origin, u.Path)
	}
	// Sound starts on the page's first key, click or touch (browsers allow
	// no audio before one); until then nothing is played.
	// The output opens once the world is on screen (startMarks): opening
	// Web Audio holds the main thread, and nothing plays before the
	// player's first gesture anyway.
	snd := audio.NewLater(log)
	prefs := desktop.NewPrefs(desktop.PrefsConfig{
		Store: &settings.LocalStorage{}, Name: queryName, Fallback: "browser",
		Where: "this browser's localStorage", Logger: log, Volume: snd,
	})
	// The saved volumes apply now; fullscreen is left alone: browsers allow
	// it only from a click.
	st := prefs.Settings()
	snd.SetVolume(st.MasterVolume, st.EffectsVolume, st.Mute)

	mark(page, "setupMs") // sound found and settings ready

	if replayURL != "" || castURL != "" {
		opt := desktop.Options{MaxFPS: maxFPS}
		if echo {
			page.Set("input", js.Global().Get("Array").New())
			opt.EchoInput = pageLines{page.Get("input")}
		}
		playCast(page, log, prefs, snd, replayURL, castURL, opt)
		return
	}

	// Signalling starts before the game loop: the first snapshot arrives
	// about twice as soon as when the loop starts first.
	// The page draws each stage of the join, and a failure's cause with
	// Retry (connecting.go).
	// The art is decoded while the connection is being made, a sheet or
	// a face at a time with a pause between, in which the page handles
	// the join's events: the join waits on the network most of the time,
	// and decoding after it held the first frame back some 150 ms.
	art := make(chan *desktop.Art, 1)
	go func() {
		a, err := desktop.LoadArt(func() { time.Sleep(time.Millisecond) })
		if err != nil {
			log.Warn("loading the art ahead", "err", err)
		}
		art <- a // nil: Play loads it, and reports what failed
	}()

	mark(page, "signallingMs")
	page.Set("match", match)
	joining := newConnecting(page, origin, log)
	conn := joining.join(context.Background(), client.ConnectConfig{Match: match, Token: token, Logger: log, RelayOnly: relayOnly,
		ICETimeout: iceTimeout, Watch: watch, Prepared: preparedFunc})
	mark(page, "connectedMs")

	// The overlay comes from the settings (desktop.Play reads it from prefs).
	status := "playing at " + origin
	if watch {
		status = "watching at " + origin
	}
	if match != "" {
		status += ", match " + match
	}
	// The pause menu's "Copy join link" copies this page's address, without
	// the player's own name, token or test parameters.
	link := origin + "/"
	if match != "" {
		link += "?" + url.Values{client.MatchQuery: {match}}.Encode()
	}
	g, err := desktop.Play(conn, desktop.PlayConfig{Prefs: prefs, Status: status, JoinLink: func() string { return link },
		Seed: uint64(time.Now().UnixNano()), Logger: log, Sound: snd, Watch: watch, Art: <-art})
	if err != nil {
		fail(page, err.Error())
		return
	}
	cl, cond := g.Client(), g.Conditioner()
	go markFirstSnapshot(page, cl)
	go joining.awaitSnapshot(func() bool { return cl.Stats().Decoded > 0 }, cl.Done())
	js.Global().Set("sightlineConditions", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) >= 3 {
			c := conditioner.Conditions{
				Loss:    args[0].Float(),
				Latency: time.Duration(args[1].Float() * float64(time.Millisecond)),
				Jitter:  time.Duration(args[2].Float() * float64(time.Millisecond)),
			}
			if len(args) >= 4 {
				c.BurstLen = args[3].Float() // mean run of losses; <= 1: single losses
			}
			cond.Set(c)
		}
		return nil
	}))
	go report(page, cl, g)
	opt := desktop.Options{MaxFPS: maxFPS}
	if echo {
		page.Set("input", js.Global().Get("Array").New())
		opt.EchoInput = pageLines{page.Get("input")}
	}
	if err := desktop.RunApp(desktop.NewApp(&startMarks{Game: g, page: page, cl: cl, blank: blank, snd: snd}, opt), "Sightline"); err != nil {
		fail(page, err.Error())
	}
}

// report publishes the client's counters to the page four times a second,
// and keeps the connection acknowledged while the tab is hidden.
func report(page js.Value, cl *client.Client, g *desktop.Game) {
	for range time.Tick(250 * time.Millisecond) {
		g.KeepAlive()
		st := cl.Stats()
		page.Set("decoded", st.Decoded)
		page.Set("verified", st.Verified)
		page.Set("matched", st.Matched)
		page.Set("mismatched", st.Mismatched)
		page.Set("undecodable", st.NoBaseline)
		page.Set("bytes", st.Bytes)
		page.Set("path", st.Conn.Path)
		page.Set("spectating", cl.Spectating())
		if g.Live() {
			page.Set("howToPlay", g.LastDrawn().HowToPlay)
			page.Set("killcamVerdicts", g.KillcamVerdicts())
			phase := ""
			if k := g.LastDrawn().Killcam; k != nil {
				phase = k.Phase
			}
			page.Set("killcamPhase", phase)
			if k := g.LastDrawn().Killcam; k != nil && k.Phase == "verdict" {
				page.Set("killcam", map[string]any{
					"killer": k.Killer, "victim": k.Victim, "eventX": int(k.EventX), "eventY": int(k.EventY),
					"judgedX": k.JudgedWorld[0], "judgedY": k.JudgedWorld[1], "ownShown": k.OwnShown,
					"title": k.Title, "verdict": k.Verdict,
				})
			}
		}
		select {
		case <-cl.Done():
			page.Set("closed", true)
		default:
		}
	}
}

// forgetToken takes ?token= out of the page's address (and so out of the
// browser's history and of what a bookmark or a shared link would carry):
// the token has been read, and it admits one join.
func forgetToken(u *url.URL) {
	q := u.Query()
	q.Del("token")
	clean := *u
	clean.RawQuery = q.Encode()
	js.Global().Get("history").Call("replaceState", nil, "", clean.String())
}

// baseURL is the address of the match server the page was served by: its
// origin, and the folder of its path when that is not the root (an invite
// link's page, /i/CODE/, whose requests the rendezvous forwards to the
// host).
func baseURL(origin, path string) string {
	if i := strings.LastIndex(path, "/"); i > 0 {
		return origin + path[:i]
	}
	return origin
}

// mark sets window.sightline[name] to the page's time now: ms since
// navigation, the clock of the page's own marks.
func mark(page js.Value, name string) {
	page.Set(name, js.Global().Get("performance").Call("now").Float())
}

// markOnce marks name unless it is marked.
func markOnce(page js.Value, name string) {
	if page.Get(name).IsUndefined() {
		mark(page, name)
	}
}

// markFirstSnapshot marks firstSnapshotMs as soon as the client decoded
// its first snapshot (it looks every 2 ms, then stops; the game loop looks
// too, every tick and frame, in case the main thread held this back).
func markFirstSnapshot(page js.Value, cl *client.Client) {
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-cl.Done():
			return
		case <-tick.C:
			if cl.Stats().Decoded > 0 {
				markOnce(page, "firstSnapshotMs")
				return
			}
		}
	}
}

// startMarks is the match as the window shows it, marking on the page when
// the game loop drew its first frame (gameLoopMs) and its first frame with
// the world in it (firstWorldDrawMs, when Draw returned, with the Go side's
// share firstWorldDrawGoMs; firstWorldFrameMs at the next animation frame,
// once the browser ran that frame's WebGL and showed it), and opens the
// sound output once that frame is drawn. It draws nothing
// before the first snapshot, nor, with blank > 0, in its first blank
// frames.
type startMarks struct {
	*desktop.Game
	page       js.Value
	cl         *client.Client
	snd        *audio.Sound // opened once the world is shown
	snapshot   bool         // firstSnapshotMs is marked
	blank      int
	frames     int
	worldShown bool
}

// Update updates the match, marking the first snapshot if it came.
func (m *startMarks) Update() error {
	m.sawSnapshot()
	return m.Game.Update()
}

func (m *startMarks) sawSnapshot() {
	if !m.snapshot && m.cl.Stats().Decoded > 0 {
		markOnce(m.page, "firstSnapshotMs")
		m.snapshot = true
	}
}

// Draw draws the match and marks the first frames.
func (m *startMarks) Draw(screen *ebiten.Image) {
	m.sawSnapshot()
	m.frames++
	if m.frames == 1 {
		mark(m.page, "gameLoopMs")
	}
	if m.frames <= m.blank || !m.snapshot {
		// The page's join panel covers the canvas until the first
		// snapshot: drawing behind it would only hold that snapshot back
		// (a frame that compiles shaders in software WebGL holds the main
		// thread for hundreds of ms, and the snapshot waits for it).
		return
	}
	if m.worldShown {
		m.Game.Draw(screen)
		return
	}
	start := time.Now()
	m.Game.Draw(screen)
	if m.Game.LastDrawn().Draws == 0 { // no map yet: no snapshot with the player in it
		return
	}
	m.worldShown = true
	m.snd.Open()
	m.page.Set("firstWorldDrawGoMs", float64(time.Since(start).Microseconds())/1000)
	mark(m.page, "firstWorldDrawMs")
	var next js.Func
	next = js.FuncOf(func(js.Value, []js.Value) any {
		mark(m.page, "firstWorldFrameMs")
		next.Release()
		return nil
	})
	js.Global().Call("requestAnimationFrame", next)
}

// pageLines appends each line written to it to a JS array.
type pageLines struct{ to js.Value }

func (p pageLines) Write(b []byte) (int, error) {
	for line := range strings.Lines(string(b)) {
		p.to.Call("push", strings.TrimSuffix(line, "\n"))
	}
	return len(b), nil
}

func fail(page js.Value, msg string) {
	page.Get("errors").Call("push", msg)
	js.Global().Get("document").Set("title", "Sightline: "+msg)
}
