package view

import "unsafe"

// Entry is one entity as a client holds it: its id and the tick whose world
// value the client has for it.
type Entry struct {
	Slot, Generation uint16
	Source           uint32
}

// ViewHistory keeps a client's views of the last History+1 ticks, each as
// entries sorted by slot. The views share one array, a stretch of stride
// entries for each tick: when a view outgrows its stretch the array grows
// for all of them at once, with room to spare, so recording allocates
// nothing once the history has held a view a little larger than its
// largest, rather than once each tick's place has met its own largest.
type ViewHistory struct {
	ticks  []uint32
	minSrc []uint32 // oldest Source in each view (0 for an empty view)
	lens   []int32  // entries in each view
	arena  []Entry  // the views: view i at [i*stride, i*stride+lens[i])
	stride int
}

func newViewHistory(size int) ViewHistory {
	return ViewHistory{ticks: make([]uint32, size), minSrc: make([]uint32, size), lens: make([]int32, size)}
}

// get returns the view of tick and its oldest source, if held.
func (h *ViewHistory) get(tick uint32) ([]Entry, uint32, bool) {
	i := tick % uint32(len(h.ticks))
	if tick == 0 || h.ticks[i] != tick {
		return nil, 0, false
	}
	o := int(i) * h.stride
	n := o + int(h.lens[i])
	return h.arena[o:n:n], h.minSrc[i], true
}

// slot returns the storage for tick's view, emptied: an append beyond its
// capacity moves the view elsewhere, and commit takes it back.
func (h *ViewHistory) slot(tick uint32) []Entry {
	i := tick % uint32(len(h.ticks))
	h.ticks[i] = 0
	o := int(i) * h.stride
	return h.arena[o : o : o+h.stride]
}

// commit records e as the view of tick, minSrc being the oldest Source in
// e (0 for an empty view). e is the storage slot gave, or a view written
// elsewhere, which commit copies in.
func (h *ViewHistory) commit(tick uint32, e []Entry, minSrc uint32) {
	i := tick % uint32(len(h.ticks))
	if len(e) > h.stride {
		h.grow(len(e))
	}
	o := int(i) * h.stride
	if len(e) > 0 && unsafe.SliceData(e) != &h.arena[o] {
		copy(h.arena[o:o+len(e)], e)
	}
	h.lens[i] = int32(len(e))
	h.ticks[i] = tick
	h.minSrc[i] = minSrc
}

// grow makes every view's stretch hold n entries and half as many again,
// keeping the views held.
func (h *ViewHistory) grow(n int) {
	stride := n + n/2
	arena := make([]Entry, len(h.ticks)*stride)
	for i, l := range h.lens {
		if h.ticks[i] != 0 {
			copy(arena[i*stride:], h.arena[i*h.stride:i*h.stride+int(l)])
		}
	}
	h.arena, h.stride = arena, stride
}

func (h *ViewHistory) reset() { clear(h.ticks) }

// Bytes returns the memory the history holds: entry storage plus bookkeeping.
func (h *ViewHistory) Bytes() int {
	return len(h.ticks)*(4+4+4) + cap(h.arena)*int(unsafe.Sizeof(Entry{}))
}
