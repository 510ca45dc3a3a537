package view

import (
	"math"
	"slices"
)

// choice is what the budget sends of a merge's items. The chosen ones are
// marked in the items themselves (item.chosen); choice says what holds of
// them all.
type choice struct {
	// all says every item is chosen: the merged view is the view sent.
	all bool
	// sorted says the merge's order is sorted, highest key first.
	sorted bool
}

// choose marks what this tick's budget sends of m's items, highest key
// first. When everything changed fits the budget it is all sent, and the
// order is sorted only if dropLowest needs it.
func (s *Sender) choose(m merged, budget int32) choice {
	if m.total <= int64(budget) {
		// Each entity costs at most what the budget has left: all go.
		for k := range m.items {
			m.items[k].chosen = true
		}
		return choice{all: true}
	}
	s.sortOrder(m.items, m.order)
	for _, k := range m.order {
		it := &m.items[k]
		if it.must || it.cost <= budget {
			it.chosen = true
			budget -= it.cost
		}
	}
	return choice{sorted: true}
}

// sortOrder sorts order by the items' keys, highest first, ties by index:
// it sorts integers that order as those pairs do.
func (s *Sender) sortOrder(items []item, order []int32) {
	keys := s.keys[:0]
	for _, k := range order {
		keys = append(keys, uint64(^orderedBits(items[k].key))<<32|uint64(uint32(k)))
	}
	slices.Sort(keys)
	for n, key := range keys {
		order[n] = int32(uint32(key))
	}
	s.keys = keys
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

// chosenCost is the estimated bits of the entities c chose of m's.
func chosenCost(m merged, c choice) int64 {
	if c.all {
		return m.total
	}
	var n int64
	for k := range m.items {
		if m.items[k].chosen {
			n += int64(m.items[k].cost)
		}
	}
	return n
}

// dropLowest un-chooses the lowest-priority chosen entities of m worth
// about excess bytes. It returns the choice left, and whether it dropped
// any.
func (s *Sender) dropLowest(m merged, c choice, excess int) (choice, bool) {
	if !c.sorted {
		s.sortOrder(m.items, m.order)
		c.sorted = true
	}
	want := s.scale.estimated(int32(excess*8) + 8)
	dropped := false
	for k := len(m.order) - 1; k >= 0 && want > 0; k-- {
		it := &m.items[m.order[k]]
		if it.chosen && !it.must {
			it.chosen = false
			want -= it.cost
			dropped = true
			c.all = false
		}
	}
	return c, dropped
}
