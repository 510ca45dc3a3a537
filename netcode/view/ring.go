package view

import (
	"slices"

	"github.com/sightline-game/sightline/netcode/snapshot"
)

// WorldRing holds the quantized world of the last Size ticks, shared by all
// clients, with an index from entity slot to row for each, and for each row
// the tick since which its entity has held that value.
type WorldRing struct {
	schema *snapshot.Schema
	ticks  []uint32
	snaps  []*snapshot.Snapshot
	rowOf  [][]int32  // per ring slot, per entity slot: row, or -1
	held   [][]uint32 // per ring slot, per row: see heldSince
	open   int        // ring index being filled, -1 if none
	newest uint32     // newest tick committed
}

// NewWorldRing returns a ring of size ticks.
func NewWorldRing(s *snapshot.Schema, size int) *WorldRing {
	w := &WorldRing{schema: s, ticks: make([]uint32, size), snaps: make([]*snapshot.Snapshot, size), rowOf: make([][]int32, size), held: make([][]uint32, size), open: -1}
	for i := range size {
		w.snaps[i] = snapshot.New(s)
		w.rowOf[i] = make([]int32, 1<<s.IndexBits)
		for j := range w.rowOf[i] {
			w.rowOf[i][j] = -1
		}
	}
	return w
}

// Size returns how many ticks the ring holds.
func (w *WorldRing) Size() int { return len(w.ticks) }

// Schema returns the world's schema.
func (w *WorldRing) Schema() *snapshot.Schema { return w.schema }

// Begin returns the empty snapshot to fill with the world at tick, evicting
// the oldest. Call Commit when it is filled.
func (w *WorldRing) Begin(tick uint32) *snapshot.Snapshot {
	i := int(tick % uint32(len(w.ticks)))
	old := w.snaps[i]
	for _, id := range old.IDs() {
		w.rowOf[i][id.Index] = -1
	}
	old.Reset()
	w.ticks[i] = 0
	w.open = i
	return old
}

// Commit indexes the snapshot filled since Begin(tick). Ticks are
// committed in increasing order; committing one again, or an older one,
// costs the ring what it knows of values held over several ticks (see
// heldSince), nothing else.
func (w *WorldRing) Commit(tick uint32) {
	i := int(tick % uint32(len(w.ticks)))
	snap := w.snaps[i]
	ids := snap.IDs()
	if tick <= w.newest {
		w.forgetHeld()
	}
	held := w.held[i][:0]
	if cap(held) < len(ids) {
		held = make([]uint32, 0, len(ids))
	}
	held = held[:len(ids)]
	rowOf := w.rowOf[i]
	prev := w.At(tick - 1)
	if prev == nil || tick-1 != w.newest {
		for row, id := range ids {
			rowOf[id.Index] = int32(row)
			held[row] = tick
		}
	} else {
		// Both worlds keep their rows by slot: one walk pairs them.
		prevHeld, prevIDs := w.held[(tick-1)%uint32(len(w.ticks))], prev.IDs()
		pr := 0
		for row, id := range ids {
			rowOf[id.Index] = int32(row)
			for pr < len(prevIDs) && prevIDs[pr].Index < id.Index {
				pr++
			}
			h := tick
			if pr < len(prevIDs) && prevIDs[pr] == id && slices.Equal(prev.Row(pr), snap.Row(row)) {
				h = prevHeld[pr]
			}
			held[row] = h
		}
	}
	w.held[i] = held
	w.ticks[i] = tick
	w.newest = max(w.newest, tick)
	w.open = -1
}

// forgetHeld makes every held tick's rows held since that tick only.
func (w *WorldRing) forgetHeld() {
	for j, t := range w.ticks {
		for r := range w.held[j] {
			w.held[j][r] = t
		}
	}
}

// heldSince returns, for each row of the world at tick (which must be
// held), the first tick of the run of consecutive committed ticks ending at
// tick through which that row's entity (same slot and generation) held the
// same values. An entity whose row says h <= s <= tick had at tick s the
// values it has at tick. The slice is the ring's own: do not modify it.
func (w *WorldRing) heldSince(tick uint32) []uint32 {
	return w.held[tick%uint32(len(w.ticks))]
}

// At returns the world at tick, or nil if the ring no longer holds it.
func (w *WorldRing) At(tick uint32) *snapshot.Snapshot {
	i := tick % uint32(len(w.ticks))
	if tick == 0 || w.ticks[i] != tick {
		return nil
	}
	return w.snaps[i]
}

// Row returns the row of slot in the world at tick (which must be held), or -1.
func (w *WorldRing) Row(tick uint32, slot uint16) int32 {
	return w.rowOf[tick%uint32(len(w.ticks))][slot]
}

// cursor looks up the ticks of a view's entries, which are few and
// repeat: it keeps the last tick's place in the ring.
type cursor struct {
	ring  *WorldRing
	tick  uint32
	snap  *snapshot.Snapshot // nil if the ring does not hold tick
	rowOf []int32
}

// seek makes tick the cursor's tick. A cursor starts at tick 0, which no
// ring holds.
func (c *cursor) seek(tick uint32) {
	if tick == c.tick {
		return
	}
	c.tick = tick
	w := c.ring
	i := tick % uint32(len(w.ticks))
	c.snap, c.rowOf = nil, nil
	if tick != 0 && w.ticks[i] == tick {
		c.snap, c.rowOf = w.snaps[i], w.rowOf[i]
	}
}

// Holds reports whether the ring still holds tick.
func (w *WorldRing) Holds(tick uint32) bool { return w.At(tick) != nil }
