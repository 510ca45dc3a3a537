package main

import (
	"fmt"
	"os"

	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/desktop"
	"github.com/sightline-game/sightline/netcode/broadcast"
)

// castView opens the replay (-replay FILE) or the live broadcast
// (-broadcast URL) and returns the scene that plays it as a spectator:
// the game's own client on a client.Cast, which turns its frames into the
// datagrams a live match would send.
func (l *launcher) castView(o options) (*desktop.CastView, error) {
	cfg := client.CastConfig{Speed: o.ReplaySpeed, Follow: uint32(o.Follow), Logger: l.log}
	status := ""
	if o.Replay != "" {
		b, err := os.ReadFile(o.Replay)
		if err != nil {
			return nil, fmt.Errorf("-replay: %w", err)
		}
		rp, err := broadcast.OpenReplay(b)
		if err != nil {
			return nil, fmt.Errorf("-replay %s: %w", o.Replay, err)
		}
		cfg.Replay = rp
		cfg.Start = rp.FirstTick() + uint32(o.ReplayAt.Seconds()*rp.Header.TickRate)
	} else {
		cfg.URL = o.Broadcast
		status = "watching the broadcast " + o.Broadcast
	}
	cast, err := client.NewCast(cfg)
	if err != nil {
		return nil, err
	}
	v, err := desktop.PlayCast(cast, l.playConfig(status, nil))
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	l.closers = append(l.closers, v.Close)
	l.mu.Unlock()
	return v, nil
}

// reportCast says on stdout what a replay or broadcast played, when the
// game ends on one: the ticks delivered and verified, by the Casts and by
// the game's clients, and the mismatches (0 unless the file or the
// decoder is broken).
func reportCast(v *desktop.CastView) {
	t := v.Totals()
	c := v.Cast()
	first, last := c.Span()
	fmt.Printf("replay: played %d ticks (%d seeks), decoded %d, %d mismatched; the game verified %d, %d mismatched; at tick %d of %d-%d, %s\n",
		t.Played, t.Seeks, t.Decoded, t.CastMismatched, t.Verified, t.Mismatched, c.Tick(), first, last, desktop.CastLine(c))
	if err := c.Err(); err != nil {
		fmt.Printf("replay: error: %v\n", err)
	}
}
