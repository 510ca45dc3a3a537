//go:build js && wasm

package main

import (
	"context"
	"log/slog"
	"syscall/js"
	"time"

	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/desktop"
	"github.com/sightline-game/sightline/game/desktop/audio"
	"github.com/sightline-game/sightline/game/desktop/settingsui"
	"github.com/sightline-game/sightline/netcode/broadcast"
)

// playCast plays ?replay=URL (a replay file) or ?broadcast=URL (a live
// broadcast's base) in the page as a spectator, through the game's own
// client on a client.Cast, whose chunks the page's fetch brings: the keys
// are the desktop's (P pause, Left/Right 5 s, [ ] speed; Space, L, F). The
// page's window.sightline says what it played: decoded (ticks delivered),
// verified, matched and mismatched (the game's clients', over every seek),
// castDecoded and castMismatched (the Casts' decoders'), seeks, replay
// (the HUD's line) and replayErr; and where it is: replayTick (the newest
// tick delivered), replayFirst and replayLast (a replay's span),
// replaySpeed, replayPaused, replayEnded; and castFrames, the game's
// updates so far (all of it is told after every update).
func playCast(page js.Value, log *slog.Logger, prefs *settingsui.Prefs, snd *audio.Sound, replayURL, castURL string, opt desktop.Options) {
	snd.Open()
	page.Set("connect", map[string]any{"done": true}) // no join to show
	if f := js.Global().Get("sightlineShowConnect"); f.Type() == js.TypeFunction {
		f.Invoke()
	}
	cfg := client.CastConfig{Logger: log}
	status := ""
	if replayURL != "" {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		b, _, err := client.PageFetch(ctx, replayURL, broadcast.MaxReplay)
		cancel()
		if err != nil {
			fail(page, "replay: "+err.Error())
			return
		}
		rp, err := broadcast.OpenReplay(b)
		if err != nil {
			fail(page, "replay "+replayURL+": "+err.Error())
			return
		}
		cfg.Replay = rp
	} else {
		cfg.URL = castURL
		status = "watching the broadcast " + castURL
	}
	cast, err := client.NewCast(cfg)
	if err != nil {
		fail(page, err.Error())
		return
	}
	v, err := desktop.PlayCast(cast, desktop.PlayConfig{Prefs: prefs, Status: status, Seed: uint64(time.Now().UnixNano()), Logger: log, Sound: snd})
	if err != nil {
		fail(page, err.Error())
		return
	}
	mark(page, "connectedMs")
	if err := desktop.RunApp(desktop.NewApp(&castReport{CastView: v, page: page}, opt), "Sightline"); err != nil {
		fail(page, err.Error())
	}
}

// castReport is the replay's scene, telling the page what it played after
// every update (from the game loop, which alone swaps the Cast on a seek):
// what a key did shows there as soon as the update that saw it ends.
type castReport struct {
	*desktop.CastView
	page   js.Value
	frames int
}

func (r *castReport) Update() error {
	updateErr := r.CastView.Update()
	r.frames++
	t := r.Totals()
	p := r.page
	p.Set("castFrames", r.frames)
	p.Set("decoded", t.Played)
	p.Set("verified", t.Verified)
	p.Set("matched", t.Verified-t.Mismatched)
	p.Set("mismatched", t.Mismatched)
	p.Set("castDecoded", t.Decoded)
	p.Set("castMismatched", t.CastMismatched)
	p.Set("seeks", t.Seeks)
	p.Set("spectating", r.Game().Client().Spectating())
	c := r.Cast()
	p.Set("replay", desktop.CastLine(c))
	first, last := c.Span()
	p.Set("replayTick", c.Tick())
	p.Set("replayFirst", first)
	p.Set("replayLast", last)
	p.Set("replaySpeed", c.Speed())
	p.Set("replayPaused", c.Paused())
	p.Set("replayEnded", c.Ended())
	if err := c.Err(); err != nil {
		p.Set("replayErr", err.Error())
	}
	if t.Played > 0 {
		markOnce(p, "firstSnapshotMs")
	}
	return updateErr
}
