package arena

import (
	"math"

	"github.com/sightline-game/sightline/netcode/events"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// tb is what the helpers need of a *testing.T or a *rapid.T.
type tb interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// newBare returns a world without creatures or pickups unless cfg asks.
func newBare(t tb, cfg Config) *World {
	t.Helper()
	if cfg.Creatures == 0 {
		cfg.Creatures = -1
	}
	if cfg.Pickups == 0 {
		cfg.Pickups = -1
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

// happening is a decoded event.
type happening struct {
	kind  events.Kind
	hit   events.Hit
	kill  events.Kill
	round events.RoundOver
}

func take(t tb, w *World) []happening {
	t.Helper()
	var out []happening
	w.TakeEvents(func(k events.Kind, body []byte) {
		h := happening{kind: k}
		var err error
		switch k {
		case events.KindHit:
			h.hit, err = events.ParseHit(body)
		case events.KindKill:
			h.kill, err = events.ParseKill(body)
		case events.KindRoundOver:
			h.round, err = events.ParseRoundOver(body)
		default:
			t.Fatalf("unexpected event kind %v", k)
		}
		if err != nil {
			t.Fatalf("%v body %x: %v", k, body, err)
		}
		if err := events.ValidateBody(k, body); err != nil {
			t.Fatalf("%v body %x invalid: %v", k, body, err)
		}
		out = append(out, h)
	})
	return out
}

// filled returns the world's snapshot, checked entity by entity against the
// schema with the validating Append.
func filled(t tb, w *World) *snapshot.Snapshot {
	t.Helper()
	s := snapshot.New(Schema())
	w.Fill(s)
	check := snapshot.New(Schema())
	for i := range s.Len() {
		if err := check.Append(s.ID(i), s.Row(i)...); err != nil {
			t.Fatalf("entity %d (%v) of tick %d: %v", i, s.ID(i), w.tick, err)
		}
	}
	return s
}

// row returns the snapshot row of slot, if present.
func row(s *snapshot.Snapshot, slot int) (snapshot.EntityID, []uint32, bool) {
	i, ok := s.Find(uint16(slot))
	if !ok {
		return snapshot.EntityID{}, nil, false
	}
	return s.ID(i), s.Row(i), true
}

func angleTo(x0, y0, x1, y1 float64) float64 { return math.Atan2(y1-y0, x1-x0) }
