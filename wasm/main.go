//go:build js && wasm

// Command wasm is the browser client: the same game as the desktop, joining
// the match served from the page's own origin. Build it with `make web`; the
// match server serves it at /.
//
// The player's settings (name, volumes, mute, network overlay) live in the
// page's localStorage under "sightline.settings"; Esc in the game opens the
// pause menu and its settings screen, which changes and saves them. A
// ?name=you in the address names the player for this visit without saving.
//
// The page reads window.sightline for what the client decoded and whether
// it matches the server, and may call window.sightlineConditions(loss,
// latencyMs, jitterMs) to condition the player's own connection.
package main

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"syscall/js"
	"time"

	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/desktop"
	"github.com/sightline-game/sightline/game/desktop/audio"
	"github.com/sightline-game/sightline/game/settings"
	"github.com/sightline-game/sightline/netcode/transport/browser"
	"github.com/sightline-game/sightline/netcode/transport/conditioner"
)

func main() {
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	page := js.Global().Get("sightline")
	origin := js.Global().Get("location").Get("origin").String()
	var queryName string
	if u, err := url.Parse(js.Global().Get("location").Get("href").String()); err == nil {
		queryName = u.Query().Get("name")
	}
	// Sound starts on the page's first key, click or touch (browsers allow
	// no audio before one); until then nothing is played.
	snd := audio.New(log)
	prefs := desktop.NewPrefs(desktop.PrefsConfig{
		Store: &settings.LocalStorage{}, Name: queryName, Fallback: "browser",
		Where: "this browser's localStorage", Logger: log, Volume: snd,
	})
	// The saved volumes apply now; fullscreen is left alone: browsers allow
	// it only from a click.
	st := prefs.Settings()
	snd.SetVolume(st.MasterVolume, st.EffectsVolume, st.Mute)
	name := prefs.Name()

	// Signalling starts before the game loop: the first snapshot arrives
	// about twice as soon as when the loop starts first.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	conn, err := browser.Dial(ctx, origin+client.SignalPath, browser.Config{Logger: log})
	cancel()
	if err != nil {
		fail(page, fmt.Sprintf("could not join the match: %v", err))
		return
	}
	start := time.Now()
	cond := conditioner.New(conn, func() time.Duration { return time.Since(start) }, uint64(start.UnixNano()))
	cl := client.New(cond, client.Config{Verify: true, Name: name, Logger: log})
	page.Set("connectedMs", js.Global().Get("performance").Call("now").Float()) // since navigation

	// The overlay comes from the settings (desktop.New reads it from prefs).
	g, err := desktop.New(desktop.Config{Client: cl, Conditioner: cond, Name: name, Prefs: prefs, Status: "playing at " + origin, Logger: log, Sound: snd})
	if err != nil {
		fail(page, err.Error())
		return
	}
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
	if err := desktop.Run(g, "Sightline"); err != nil {
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
		if st.Decoded > 0 && page.Get("firstSnapshotMs").IsUndefined() {
			page.Set("firstSnapshotMs", js.Global().Get("performance").Call("now").Float())
		}
		select {
		case <-cl.Done():
			page.Set("closed", true)
		default:
		}
	}
}

func fail(page js.Value, msg string) {
	page.Get("errors").Call("push", msg)
	js.Global().Get("document").Set("title", "Sightline: "+msg)
}
