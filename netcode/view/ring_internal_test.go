package view

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sightline-game/sightline/netcode/snapshot"
)

// heldSince names, for each row, the first tick of the run of consecutive
// committed ticks through which the row's entity held its values: exactly
// that run when ticks are committed in order (some skipped), and never more
// than is true when a tick is committed again.
func TestWorldRingHeldSince(t *testing.T) {
	s := snapshot.MustSchema(6, 2, 0, snapshot.Field{Name: "x", Bits: 8}, snapshot.Field{Name: "y", Bits: 3})
	rng := rand.New(rand.NewPCG(7, 8))
	for run := range 20 {
		ring := NewWorldRing(s, 4+rng.IntN(12))
		type ent struct {
			alive bool
			gen   uint16
			x, y  uint32
		}
		ents := make([]ent, 64)
		worlds := map[uint32]*snapshot.Snapshot{} // every tick's world as committed last
		recommits := 0
		tick := uint32(0)
		for range 300 {
			for i := range ents {
				e := &ents[i]
				switch r := rng.IntN(100); {
				case r < 3:
					e.alive = !e.alive
					if e.alive {
						e.gen = (e.gen + 1) & 3
					}
				case r < 5 && e.alive:
					e.gen = (e.gen + 1) & 3 // another entity in the slot at once, with the same values
				case r < 10:
					e.x = uint32(rng.IntN(256))
				case r < 12:
					e.y = uint32(rng.IntN(8))
				}
			}
			switch r := rng.IntN(20); {
			case r == 0 && tick > 2 && run%2 == 1:
				tick -= uint32(1 + rng.IntN(2)) // a tick committed again
				recommits++
			case r == 1:
				tick += 2 // a tick skipped
			default:
				tick++
			}
			w := ring.Begin(tick)
			for i, e := range ents {
				if e.alive {
					if err := w.Append(snapshot.EntityID{Index: uint16(i), Generation: e.gen}, e.x, e.y); err != nil {
						t.Fatal(err)
					}
				}
			}
			ring.Commit(tick)
			c := snapshot.New(s)
			c.CopyFrom(w)
			worlds[tick] = c
			// Every tick of [h, T] the ring still holds had the same entity
			// with the same values, for every row of every tick T it holds.
			for _, held := range ring.ticks {
				if held == 0 {
					continue
				}
				hw := ring.At(held)
				for row, h := range ring.heldSince(held) {
					id := hw.ID(row)
					for at := h; at < held; at++ {
						if old := ring.At(at); old != nil {
							r := ring.Row(at, id.Index)
							if r < 0 || old.ID(int(r)) != id || !slices.Equal(old.Row(int(r)), hw.Row(row)) {
								t.Fatalf("run %d, after tick %d: tick %d row %d (%v) held since %d, but tick %d differs", run, tick, held, row, id, h, at)
							}
						}
					}
				}
			}
			for row, h := range ring.heldSince(tick) {
				id := w.ID(row)
				if run%2 == 1 {
					continue
				}
				// In order, h is exactly where the run starts.
				want := tick
				for {
					prev, ok := worlds[want-1]
					if !ok {
						break
					}
					i, found := prev.Find(id.Index)
					if !found || prev.ID(i) != id || !slices.Equal(prev.Row(i), w.Row(row)) {
						break
					}
					want--
				}
				if h != want {
					t.Fatalf("run %d tick %d row %d (%v): held since %d, want %d", run, tick, row, id, h, want)
				}
			}
		}
		if run%2 == 1 && recommits == 0 {
			t.Fatalf("run %d committed no tick again", run)
		}
	}
}

// One tick of a 2000-entity world into the ring, a third of it moving: the
// ring's share of a server tick, whatever the number of clients.
func BenchmarkWorldRingCommit(b *testing.B) {
	s := snapshot.MustSchema(12, 4, 0, snapshot.Field{Name: "x", Bits: 16}, snapshot.Field{Name: "y", Bits: 16}, snapshot.Field{Name: "h", Bits: 10})
	ring := NewWorldRing(s, 66)
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 2000
	xs, ys := make([]uint32, n), make([]uint32, n)
	for i := range n {
		xs[i], ys[i] = uint32(rng.IntN(65536)), uint32(rng.IntN(65536))
	}
	tick := uint32(0)
	step := func() {
		tick++
		for i := range n / 3 {
			xs[i] = (xs[i] + 3) & 0xffff
		}
		w := ring.Begin(tick)
		ids, vals := w.Extend(n)
		for i := range n {
			ids[i] = snapshot.EntityID{Index: uint16(i * 2)}
			vals[3*i], vals[3*i+1], vals[3*i+2] = xs[i], ys[i], 7
		}
		ring.Commit(tick)
	}
	for range 100 {
		step()
	}
	b.ReportAllocs()
	for b.Loop() {
		step()
	}
}
