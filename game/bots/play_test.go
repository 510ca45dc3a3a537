package bots

import (
	"testing"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// TestBrainsPlayTheArena: brains fed the arena's own snapshots hunt and
// score, far better than wanderers in the same match.
func TestBrainsPlayTheArena(t *testing.T) {
	const bots, ticks = 8, 60 * arena.TickRate
	play := func(smart bool) arena.Stats {
		w, err := arena.NewWorld(arena.Config{Seed: 21})
		if err != nil {
			t.Fatal(err)
		}
		brains := make([]*Brain, bots)
		wanderers := make([]*Wanderer, bots)
		for i := range bots {
			w.AddPlayer(arena.PlayerID(i + 1))
			brains[i], wanderers[i] = NewBrain(uint64(i)), NewWanderer(uint64(i))
		}
		view := snapshot.New(arena.Schema())
		for tick := uint32(1); tick <= ticks; tick++ {
			w.Fill(view)
			for i := range bots {
				id := arena.PlayerID(i + 1)
				var in arena.Input
				if smart {
					in = arena.Input(brains[i].Next(w.Observe(id).Self, view))
				} else {
					in = arena.Input(wanderers[i].Next())
				}
				w.ApplyInput(id, tick, in)
			}
			w.Step()
		}
		return w.Stats()
	}
	smart, dumb := play(true), play(false)
	t.Logf("brains: %d shots, %d hits, %d creatures, %d kills; wanderers: %d shots, %d hits, %d creatures",
		smart.ShotsFired, smart.Hits, smart.CreatureKills, smart.Kills, dumb.ShotsFired, dumb.Hits, dumb.CreatureKills)
	if smart.Hits < 100 || smart.CreatureKills < 20 || smart.Hits < 2*dumb.Hits {
		t.Fatalf("brains hit %d times and killed %d creatures; wanderers hit %d times", smart.Hits, smart.CreatureKills, dumb.Hits)
	}
	if float64(smart.Hits) < 0.25*float64(smart.ShotsFired) {
		t.Fatalf("brains hit with %d of %d shots", smart.Hits, smart.ShotsFired)
	}
}
