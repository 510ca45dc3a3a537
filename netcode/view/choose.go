package view

import (
	"math"
	"slices"
)

// everything changed fits the budget it is all sent, and the order is
// sorted only if dropLowest needs it.
func (s *Sender) choose(budget int32) {
	s.sorted = false
	s.allSent = s.total <= int64(budget)
	if s.allSent {
		// Each entity costs at most what the budget has left: all go.
		for k := range s.items {
			s.items[k].chosen = true
		}
		return
	}
	s.sortOrder()
	for _, k := range s.order {
		it := &s.items[k]
		if it.must || it.cost <= budget {
			it.chosen = true
			budget -= it.cost
		}
	}
}

// sortOrder sorts order by key, highest first, ties by index: it sorts
// integers that order as those pairs do.
func (s *Sender) sortOrder() {
	keys := s.keys[:0]
	for _, k := range s.order {
		keys = append(keys, uint64(^orderedBits(s.items[k].key))<<32|uint64(uint32(k)))
	}
	slices.Sort(keys)
	for n, key := range keys {
		s.order[n] = int32(uint32(key))
	}
	s.keys = keys
	s.sorted = true
}

// orderedBits maps a float32 to an integer in the order cmp.Compare gives
// floats: NaN below every number, -0 equal to +0.
func orderedBits(f float32) uint32 {
	if f != f {
		return 0
	}
	if f == 0 {
		return 1 << 31
	}
	b := math.Float32bits(f)
	if b>>31 != 0 {
		return ^b
	}
	return b | 1<<31
}

// chosenCost is the estimated bits of the entities chosen.
func (s *Sender) chosenCost() int64 {
	if s.allSent {
		return s.total
	}
	var n int64
	for k := range s.items {
		if s.items[k].chosen {
			n += int64(s.items[k].cost)
		}
	}
	return n
}

// dropLowest un-chooses the lowest-priority chosen entities worth about
// excess bytes; it reports whether it dropped any.
func (s *Sender) dropLowest(excess int) bool {
	if !s.sorted {
		s.sortOrder()
	}
	want := s.scale.estimated(int32(excess*8) + 8)
	dropped := false
	for k := len(s.order) - 1; k >= 0 && want > 0; k-- {
		it := &s.items[s.order[k]]
		if it.chosen && !it.must {
			it.chosen = false
			want -= it.cost
			dropped = true
			s.allSent = false
		}
	}
	return dropped
}

// build writes the view this packet leaves the client with, and its values
