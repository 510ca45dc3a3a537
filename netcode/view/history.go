package view

// Entry is one entity as a client holds it: its id and the tick whose world
// value the client has for it.
type Entry struct {
	Slot, Generation uint16
	Source           uint32
}

// ViewHistory keeps a client's views of the last History+1 ticks, each as
// entries sorted by slot. Storage is reused: recording allocates nothing once
// each slot has held its largest view.
type ViewHistory struct {
	ticks   []uint32
	minSrc  []uint32 // oldest Source in each view (0 for an empty view)
	entries [][]Entry
}

func newViewHistory(size, capacity int) ViewHistory {
	h := ViewHistory{ticks: make([]uint32, size), minSrc: make([]uint32, size), entries: make([][]Entry, size)}
	for i := range h.entries {
		h.entries[i] = make([]Entry, 0, capacity)
	}
	return h
}

// get returns the view of tick and its oldest source, if held.
func (h *ViewHistory) get(tick uint32) ([]Entry, uint32, bool) {
	i := tick % uint32(len(h.ticks))
	if tick == 0 || h.ticks[i] != tick {
		return nil, 0, false
	}
	return h.entries[i], h.minSrc[i], true
}

// slot returns the storage for tick's view, emptied.
func (h *ViewHistory) slot(tick uint32) []Entry {
	i := tick % uint32(len(h.ticks))
	h.ticks[i] = 0
	return h.entries[i][:0]
}

// commit records e as the view of tick, minSrc being the oldest Source in
// e (0 for an empty view).
func (h *ViewHistory) commit(tick uint32, e []Entry, minSrc uint32) {
	i := tick % uint32(len(h.ticks))
	h.entries[i] = e
	h.ticks[i] = tick
	h.minSrc[i] = minSrc
}

func (h *ViewHistory) reset() { clear(h.ticks) }

// Bytes returns the memory the history holds: entry storage plus bookkeeping.
func (h *ViewHistory) Bytes() int {
	n := len(h.ticks) * (4 + 4 + 24)
	for _, e := range h.entries {
		n += cap(e) * 8
	}
	return n
}
