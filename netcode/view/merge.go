package view

import (
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/sightline-game/sightline/netcode/snapshot"
)

// sortByRow puts cands in row order, which is slot order (a snapshot keeps
// its rows by slot), as merge walks them beside the baseline. Rows are few
// and dense, so it places each candidate by its row and reads them back
// along a bitmap of the rows held: linear, where a comparison sort of the
// hundred or so candidates of a view was a tenth of a crowded match's tick.
// A row given twice keeps its last candidate, and cands shrinks to match.
// Candidates already in row order (as Area.Query gives them) stay as they
// are.
func (sh *Shared) sortByRow(cands []Candidate, rows int) []Candidate {
	inOrder := true
	for k := 1; k < len(cands) && inOrder; k++ {
		inOrder = cands[k-1].Row < cands[k].Row
	}
	if inOrder {
		return cands
	}
	if len(sh.byRow) < rows {
		sh.byRow = make([]Candidate, rows)
		sh.rows = make([]uint64, (rows+63)/64)
	}
	words := sh.rows[:(rows+63)/64]
	for _, c := range cands {
		sh.byRow[c.Row] = c
		words[c.Row/64] |= 1 << (c.Row % 64)
	}
	n := 0
	for w, bitsLeft := range words {
		for bitsLeft != 0 {
			r := w*64 + bits.TrailingZeros64(bitsLeft)
			bitsLeft &= bitsLeft - 1
			cands[n] = sh.byRow[r]
			n++
		}
		words[w] = 0
	}
	return cands[:n]
}

// merged is what merge makes of the baseline and the candidates: the view
// as if every changed and new entity is sent, and what the budget decides
// on. Its slices are the Sender's scratch (the Shared's, or the history's
// storage for the tick), valid until the next Append.
type merged struct {
	// view is the view with every changed and new entity sent.
	view []Entry
	// values are view's values (the Shared's current snapshot, which
	// build rewrites).
	values *snapshot.Snapshot
	// base is the baseline's values, for a delta (the Shared's base
	// snapshot), and changes how values differ from them (the Shared's).
	base    *snapshot.Snapshot
	changes *snapshot.Changes
	// inSlot says view is in the history's storage for the tick (else in
	// the scratch's spare): a view written entry by entry needs it moved
	// aside (setAside).
	inSlot bool
	// items are the changed and new entities, in slot order.
	items []item
	// order is the indices of items, to be sorted by key (choose).
	order []int32
	// total is the estimated cost of the items, in bits.
	total int64
	// removed is how many entities of the baseline left the view.
	removed int
}

// item is a changed or new entity of the merge of baseline view and
// candidates: one the budget decides on.
type item struct {
	at     int32 // its place in the view merge builds
	slot   uint16
	isNew  bool // entering (or afresh in its slot), else changed
	chosen bool
	must   bool
	row    int32   // row in this tick's world
	src    uint32  // baseline entry's source tick (changed only)
	cost   int32   // estimated bits if sent
	key    float32 // what choose orders by: acc, or +Inf for a must
	acc    float32 // accumulated priority
	since  uint32  // tick it began waiting
}

// merge walks the baseline view, the candidates and the waiting entities
// in slot order. It returns the view as if every changed and new entity is
// sent (and writes its values in the Shared's current snapshot), an item
// for each changed or new entity with their total cost, and, when the
// packet is a delta, writes the baseline's values in the Shared's base
// snapshot and how the two differ (the Shared's changes). lean says the
// budget is in debt: then no entity goes for its age alone (settle).
//
// An unchanged entity costs no item: one whose row held its value since
// the baseline's tick (the ring says so) needs no look-up of that value.
//
// It goes in passes, each a short loop over the view with few variables
// (the compiler keeps them in registers, where one loop doing everything
// spilled most of them on every entity): place the candidates, join them
// with the baseline, find the changes, then settle the items' priorities.
func (s *Sender) merge(tick uint32, base []Entry, cands []Candidate, world *snapshot.Snapshot, lean bool) merged {
	sh := s.sh
	cur, bs := sh.cur, sh.base
	cur.Reset()
	bs.Reset()
	chg := &sh.changes
	chg.Reset()
	curIDs, curVals := cur.Extend(len(cands))
	baseIDs, baseVals := bs.Extend(len(base))
	// It goes where the history keeps this tick's view if that has the
	// room: the history's storage grows only as a view written entry by
	// entry grows it.
	out, inSlot := s.hist.slot(tick), true
	if cap(out) < len(cands) {
		if cap(s.spare) < len(cands) {
			s.spare = make([]Entry, 0, 2*len(cands)) // room to grow: views vary
		}
		out, inSlot = s.spare, false
	}
	out = out[:len(cands)]
	place(tick, cands, world, out, curIDs, curVals, len(sh.fields))
	for i, e := range base {
		baseIDs[i] = snapshot.EntityID{Index: e.Slot, Generation: e.Generation}
	}
	baseOf := s.join(base, curIDs)
	src := cursor{ring: sh.Ring}
	for _, i := range chg.Removed {
		src.seek(base[i].Source)
		copyRow(baseVals[int(i)*len(sh.fields):][:len(sh.fields)], src.snap.Row(int(src.rowOf[base[i].Slot])))
	}
	items := s.changes(tick, base, baseOf, cands, &src)
	order, total := s.settle(tick, items, baseOf, cands, lean)
	s.items, s.order = items, order // kept for their room
	return merged{view: out, values: cur, base: bs, changes: chg, inSlot: inSlot, items: items, order: order, total: total, removed: len(chg.Removed)}
}

// place writes each candidate as sent this tick: its entry in the view, its
// id and its values.
func place(tick uint32, cands []Candidate, world *snapshot.Snapshot, out []Entry, curIDs []snapshot.EntityID, curVals []uint32, nf int) {
	ids, vals := world.IDs(), world.Values()
	out, curIDs = out[:len(cands)], curIDs[:len(cands)]
	for j, c := range cands {
		id := ids[c.Row]
		out[j] = Entry{Slot: id.Index, Generation: id.Generation, Source: tick}
		curIDs[j] = id
	}
	// The values in a loop of their own, each row's place the rest of the
	// last one's: fewer variables live, and no multiplying by the place.
	dst := curVals[:len(cands)*nf]
	for _, c := range cands {
		r := int(c.Row) * nf
		copyRow(dst[:nf], vals[r:r+nf])
		dst = dst[nf:]
	}
}

// Places in the baseline of entities not in it (join).
const (
	notInBaseline = -1
	replacing     = -2 // the baseline has another generation in the slot
)

// join walks the baseline and the view in slot order. It returns, for each
// entity of the view, its index in the baseline, or notInBaseline or
// replacing for a new one, and lists the removed and the new in the
// Shared's changes.
func (s *Sender) join(base []Entry, curIDs []snapshot.EntityID) []int32 {
	chg := &s.sh.changes
	baseOf := slices.Grow(s.baseOf[:0], len(curIDs))[:len(curIDs)]
	i := 0
	for j, id := range curIDs {
		for i < len(base) && base[i].Slot < id.Index {
			chg.Removed = append(chg.Removed, int32(i)) // left the area (or the world)
			i++
		}
		baseOf[j] = notInBaseline
		if i < len(base) && base[i].Slot == id.Index {
			if base[i].Generation == id.Generation {
				baseOf[j] = int32(i)
			} else {
				chg.Removed = append(chg.Removed, int32(i)) // another entity: it starts afresh
				baseOf[j] = replacing
			}
			i++
		}
		if baseOf[j] < 0 {
			chg.New = append(chg.New, int32(j))
		}
	}
	for ; i < len(base); i++ {
		chg.Removed = append(chg.Removed, int32(i))
	}
	s.baseOf = baseOf
	return baseOf
}

// changes writes the survivors' baseline values, lists the changed ones in
// the Shared's changes, and returns an item for each changed and new
// entity, in slot order, with its cost.
func (s *Sender) changes(tick uint32, base []Entry, baseOf []int32, cands []Candidate, src *cursor) []item {
	sh := s.sh
	held := sh.Ring.heldSince(tick)
	nf := len(sh.fields)
	curVals, baseVals := sh.cur.Values(), sh.base.Values()
	// At most one item and one change per candidate: written in place.
	items := slices.Grow(s.items[:0], len(cands))[:len(cands)]
	changed := slices.Grow(sh.changes.Changed[:0], len(cands))[:len(cands)]
	ni, nc := 0, 0
	newBits := int32(sh.newBits)
	surv := int32(0)
	for j, i := range baseOf[:len(cands)] {
		c := cands[j]
		if i < 0 {
			items[ni].set(int32(j), c.Row, 0, newBits, true)
			ni++
			continue
		}
		surv++
		b := base[i]
		row, bv := curVals[j*nf:j*nf+nf], baseVals[int(i)*nf:int(i)*nf+nf]
		if b.Source >= held[c.Row] {
			// Held its value since the baseline's: unchanged.
			copyRow(bv, row)
			continue
		}
		src.seek(b.Source)
		if src.snap == nil || src.rowOf[b.Slot] < 0 {
			// A usable baseline's values are all in the ring (its oldest
			// is, and the ticks since are committed in order).
			panic(fmt.Sprintf("view: the baseline's value of %d/%d from tick %d has left the ring", b.Slot, b.Generation, b.Source))
		}
		was := src.snap.Row(int(src.rowOf[b.Slot]))
		copyRow(bv, was)
		cost, fields := s.changedCost(was, row)
		if fields == 0 {
			continue
		}
		changed[nc] = snapshot.Change{Base: i, Cur: int32(j), Survivor: surv - 1, Fields: fields}
		nc++
		items[ni].set(int32(j), c.Row, b.Source, cost, false)
		ni++
	}
	sh.changes.Changed = changed[:nc]
	return items[:ni]
}

// set makes it the item of the entity at place at of the view, at row of
// the world, with the source tick of its baseline value (changed only).
// Each field is written in place: a composite literal would go through a
// temporary on the stack.
func (it *item) set(at, row int32, src uint32, cost int32, isNew bool) {
	it.at, it.row, it.src, it.cost = at, row, src, cost
	it.isNew, it.chosen, it.must = isNew, false, false
}

// settle fills in the items' slots, musts and accumulated priorities,
// walking the entities that waited beside them, and returns the order to
// sort them in and their total cost. An entity about to outlive the ring
// goes regardless, unless the budget is in debt (lean).
func (s *Sender) settle(tick uint32, items []item, baseOf []int32, cands []Candidate, lean bool) ([]int32, int64) {
	order := slices.Grow(s.order[:0], len(items))[:len(items)]
	total := int64(0)
	curIDs := s.sh.cur.IDs()
	waiting := s.waiting
	w := 0
	for k := range items {
		it := &items[k]
		c := cands[it.at]
		it.slot = curIDs[it.at].Index
		it.must = c.Must || (!it.isNew && !lean && tick-it.src >= s.maxAge)
		for w < len(waiting) && waiting[w].slot < it.slot {
			w++ // waited, but is no candidate now, or is unchanged: stops waiting
		}
		var prev *waiter
		if w < len(waiting) && waiting[w].slot == it.slot {
			prev = &waiting[w]
			w++
		}
		if baseOf[it.at] == replacing {
			prev = nil // what waited was the slot's last entity
		}
		pending(it, prev, c.Priority, tick)
		order[k] = int32(k)
		total += int64(it.cost)
	}
	return order, total
}

// copyRow copies an entity's values.
func copyRow(dst, src []uint32) {
	src = src[:len(dst)]
	for f := range dst {
		dst[f] = src[f]
	}
}

// pending accumulates an entity's priority while it waits: prev is its
// waiting entry from the last packet, if any.
func pending(it *item, prev *waiter, p float32, tick uint32) {
	var acc float32
	it.since = tick
	if prev != nil {
		acc, it.since = prev.acc, prev.since
	}
	acc += p
	it.acc, it.key = acc, acc
	if it.must {
		it.key = float32(math.Inf(1))
	}
}

// changedCost estimates the bits of a changed entity, and returns the
// mask of its fields that changed.
func (s *Sender) changedCost(old, cur []uint32) (int32, uint32) {
	fields := s.sh.fields
	old, cur = old[:len(fields)], cur[:len(fields)]
	n, mask := s.sh.changedBits, uint32(0)
	for f, fc := range fields {
		x := cur[f] - old[f]
		d := int32(x<<(fc.shift&31)) >> (fc.shift & 31) // masked: spares Go's check of the count
		z := uint32(d<<1) ^ uint32(d>>31)
		differs := (x | -x) >> 31 // 1 if the value changed
		// An unchanged field costs only its bit of the mask.
		n += min(int32(2+bits.Len32(z)), fc.most) & -int32(differs)
		mask |= differs << (f & 31)
	}
	return n, mask
}

// fieldCost is what changedCost needs of a field: the shift that sign
// extends a difference from the field's width (below 32), and the most a
// value costs written raw.
type fieldCost struct {
	shift uint32
	most  int32
}
