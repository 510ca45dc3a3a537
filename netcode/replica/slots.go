package replica

// freeSlots remembers which entries of a slot slice are unused, so that
// their buffers are reused before the slice grows. The most recently
// released slot is taken first. The zero freeSlots is ready; a warmed-up one
// allocates nothing.
type freeSlots struct {
	free []int32
}

// reset marks all n slots free, to be taken from the highest index down.
func (f *freeSlots) reset(n int) {
	f.free = f.free[:0]
	for i := range n {
		f.free = append(f.free, int32(i))
	}
}

// release marks slot i free.
func (f *freeSlots) release(i int32) { f.free = append(f.free, i) }

// takeSlot returns the index of an unused slot of slots: the most recently
// released one, or else a new zero slot appended to slots (which it
// returns). The caller overwrites the slot.
func takeSlot[S any](f *freeSlots, slots []S) ([]S, int32) {
	if n := len(f.free); n > 0 {
		i := f.free[n-1]
		f.free = f.free[:n-1]
		return slots, i
	}
	var zero S
	slots = append(slots, zero)
	return slots, int32(len(slots) - 1)
}
