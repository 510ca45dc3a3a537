package arena

import "math"

// tb is what the helpers need of a *testing.T or a *rapid.T.
type tb interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// newBare returns a world without creatures or pickups (of any kind)
// unless cfg asks.
func newBare(t tb, cfg Config) *World {
	t.Helper()
	if cfg.Creatures == 0 {
		cfg.Creatures = -1
	}
	if cfg.Pickups == 0 {
		cfg.Pickups = -1
	}
	if cfg.SpreadGuns == 0 {
		cfg.SpreadGuns = -1
	}
	if cfg.PowerUps == 0 {
		cfg.PowerUps = -1
	}
	w, err := NewWorld(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// mid is a row in the always-open middle of every map.
const mid = WorldSize / 2

// place moves player id to (x, y).
func place(t tb, w *World, id PlayerID, x, y float64) {
	t.Helper()
	i, ok := w.byID[id]
	if !ok {
		t.Fatalf("player %d not in the match", id)
	}
	if w.m.Blocked(x, y, PlayerRadius) {
		t.Fatalf("(%v, %v) is in a wall", x, y)
	}
	w.players[i].x, w.players[i].y = x, y
}

func (w *World) playerOf(t tb, id PlayerID) *player {
	t.Helper()
	i, ok := w.byID[id]
	if !ok {
		t.Fatalf("player %d not in the match", id)
	}
	return &w.players[i]
}

// seqs hands out increasing input numbers per player.
type seqs map[PlayerID]uint32

func (s seqs) apply(w *World, id PlayerID, in Input) {
	s[id]++
	w.ApplyInput(id, s[id], in)
}

func take(t tb, w *World) []Event {
	t.Helper()
	var out []Event
	w.TakeEvents(func(e Event) {
		if e.Kind < EventHit || e.Kind > EventRoundOver {
			t.Fatalf("unexpected event %+v", e)
		}
		out = append(out, e)
	})
	return out
}

// filled returns the world's entities, each checked against the ranges
// the rules promise.
func filled(t tb, w *World) []Entity {
	t.Helper()
	ents := w.AppendEntities(nil)
	for i, e := range ents {
		switch {
		case i > 0 && ents[i-1].Slot >= e.Slot:
			t.Fatalf("tick %d: slot %d after slot %d", w.tick, e.Slot, ents[i-1].Slot)
		case e.Generation > maxGen:
			t.Fatalf("tick %d: %+v: generation out of range", w.tick, e)
		case e.X < 0 || e.Y < 0 || e.X > WorldSize || e.Y > WorldSize:
			t.Fatalf("tick %d: %+v: outside the world", w.tick, e)
		case e.Heading < 0 || e.Heading >= 2*math.Pi:
			t.Fatalf("tick %d: %+v: heading out of range", w.tick, e)
		case e.Health < 0 || e.Health > max(PlayerHealth, CreatureHealth):
			t.Fatalf("tick %d: %+v: health out of range", w.tick, e)
		}
	}
	return ents
}

// row returns the entity in slot, if present.
func row(ents []Entity, slot int) (Entity, bool) {
	for _, e := range ents {
		if int(e.Slot) == slot {
			return e, true
		}
	}
	return Entity{}, false
}

func angleTo(x0, y0, x1, y1 float64) float64 { return math.Atan2(y1-y0, x1-x0) }
