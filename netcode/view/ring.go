package view

import "github.com/sightline-game/sightline/netcode/snapshot"

// WorldRing holds the quantized world of the last Size ticks, shared by all
// clients, with an index from entity slot to row for each.
type WorldRing struct {
	schema *snapshot.Schema
	ticks  []uint32
	snaps  []*snapshot.Snapshot
	rowOf  [][]int32 // per ring slot, per entity slot: row, or -1
	open   int       // ring index being filled, -1 if none
}

// NewWorldRing returns a ring of size ticks.
func NewWorldRing(s *snapshot.Schema, size int) *WorldRing {
	w := &WorldRing{schema: s, ticks: make([]uint32, size), snaps: make([]*snapshot.Snapshot, size), rowOf: make([][]int32, size), open: -1}
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

// Commit indexes the snapshot filled since Begin(tick).
func (w *WorldRing) Commit(tick uint32) {
	i := int(tick % uint32(len(w.ticks)))
	for row, id := range w.snaps[i].IDs() {
		w.rowOf[i][id.Index] = int32(row)
	}
	w.ticks[i] = tick
	w.open = -1
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

// Holds reports whether the ring still holds tick.
func (w *WorldRing) Holds(tick uint32) bool { return w.At(tick) != nil }
