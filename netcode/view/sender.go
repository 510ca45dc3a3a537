package view

import (
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
)

// Candidate is an entity in a client's area of interest this tick.
type Candidate struct {
	// Row is the entity's row in the tick's world snapshot.
	Row int32
	// Priority is how much the client needs fresh values of it this tick
	// (closer, aimed at, fighting: higher). It accumulates while the entity waits.
	Priority float32
	// Must sends it whenever it changed, whatever the budget: the player's own entity.
	Must bool
}

// Config sets up a client's Sender. Zero fields take the defaults noted.
type Config struct {
	// History is how many ticks a delta may reach back (default 32).
	History int
	// PacketCap is the largest packet, in bytes (default 1195: a 1200-byte
	// datagram less the session's framing).
	PacketCap int
	// Rate is the client's budget in bytes per second (default 8000); at
	// least MinRate, the floor that carries the header and the player's own
	// entity every tick.
	Rate float64
	// TickRate is the server's tick rate in Hz (default 30).
	TickRate float64
	// Overhead is the bytes the caller adds to every packet (framing); they
	// count against the budget.
	Overhead int
	// FullInterval is the least number of ticks between two packets sent
	// without a baseline: a client that acknowledges nothing gets a few full
	// views a second, not one every tick (default TickRate/5).
	FullInterval int
}

func (c Config) withDefaults() Config {
	if c.History <= 0 {
		c.History = 32
	}
	if c.PacketCap <= 0 {
		c.PacketCap = 1195
	}
	if c.Rate <= 0 {
		c.Rate = 8000
	}
	if c.TickRate <= 0 {
		c.TickRate = 30
	}
	if c.FullInterval <= 0 {
		c.FullInterval = max(1, int(c.TickRate/5))
	}
	return c
}

// Report says what one Append did.
type Report struct {
	Why      snapstream.Why
	Skipped  bool // nothing sent this tick: a full view too soon after the last
	InView   int  // entities the client holds after this packet
	Sent     int  // entities written with fresh values (changed or entering)
	Deferred int  // changed or entering entities left for a later tick
	Removed  int  // entities that left the area
	// Lean says the tick's allowance did not cover the packet's fixed cost
	// (the budget is in debt): the packet carries the header, the Must
	// candidates, the removals and only the values that have left the
	// world ring; everything else waits for the budget.
	Lean bool
	// OldestDeferral is, among deferred entities, the most ticks one has waited.
	OldestDeferral uint32
	// OldestValue is, among entities in view, the age of the oldest value
	// the client holds; never more than MaxDeferral unless Lean.
	OldestValue uint32
	Bytes       int
}

// Shared is what every client's Sender of one match uses: the world ring,
// the wire format and scratch space. Senders using it must run one at a time.
type Shared struct {
	Ring   *WorldRing
	Format snapstream.Format
	base   *snapshot.Snapshot
	cur    *snapshot.Snapshot
	// costs of fields, computed once
	fields      []fieldCost
	newBits     int
	changedBits int32 // a changed entity's cost before its values
	// scratch of sortByRow, grown to the world's rows
	byRow []Candidate
	rows  []uint64 // a bit per row: a candidate holds it
	// How cur differs from base as merge built them, for a Format that
	// takes it (changesFmt, nil if the Format does not).
	changes    snapshot.Changes
	changesFmt snapstream.ChangesAppender
	scratch    scratch
}

// scratch is what one Append fills and leaves behind. The Senders of a
// Shared run one at a time, so they share it: it stays in the cache from
// one client to the next, where each client's own would have to be
// fetched again.
type scratch struct {
	items []item   // the changed and new entities, in slot order
	order []int32  // indices of items, highest key first once sorted
	keys  []uint64 // scratch of sortOrder
	spare []Entry  // storage for the view when the history's is short
	// baseOf is, per entity of the view, its place in the baseline (join).
	baseOf []int32
}

// NewShared returns the shared part of a match's senders.
func NewShared(ring *WorldRing, f snapstream.Format) *Shared {
	s := ring.Schema()
	sh := &Shared{Ring: ring, Format: f, base: snapshot.New(s), cur: snapshot.New(s)}
	for _, fd := range s.Fields {
		sh.fields = append(sh.fields, fieldCost{shift: uint32(32-fd.Bits) & 31, most: 1 + int32(fd.Bits)})
	}
	sh.changedBits = changedOverhead
	if len(s.Fields) > 1 {
		sh.changedBits += int32(len(s.Fields)) // the mask
	}
	sh.newBits = newEntityOverhead + int(s.GenerationBits) + s.EntityBits()
	sh.changesFmt, _ = f.(snapstream.ChangesAppender)
	return sh
}

// SenderStats counts what a Sender did.
type SenderStats struct {
	snapstream.SenderStats
	Skipped      uint64
	EntitiesSent uint64
	Deferrals    uint64 // entity-ticks spent waiting
	MaxDeferral  uint32 // the longest any entity waited, in ticks
	// MaxValueAge is the oldest value any view held, in ticks, among views
	// not Lean: a lean view leaves values waiting as they are, and may hold
	// them longer than MaxDeferral.
	MaxValueAge uint32
	Lean        uint64 // lean packets sent: the header and the Must candidates, in debt
	newest      uint32
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

// waiter is an entity left waiting by the last packet: its slot, the tick
// it began waiting and the priority it has accumulated since.
type waiter struct {
	slot  uint16
	since uint32
	acc   float32
}

// Sender builds and encodes one client's views. Not safe for concurrent use.
type Sender struct {
	cfg      Config
	sh       *Shared
	hist     ViewHistory
	acked    uint32
	lastFull uint32
	tokens   float64
	perTick  float64
	maxAge   uint32 // a deferred value older than this is sent regardless

	// waiting holds, in slot order, the entities the last packet left
	// waiting; merge walks it beside the candidates.
	waiting []waiter
	nextW   []waiter
	*scratch
	sorted  bool    // order is sorted
	allSent bool    // every item is chosen: full is the view
	full    []Entry // the view with every changed and new entity sent
	inSlot  bool    // full is in the history's storage for the tick (else in spare)
	total   int64   // cost of the items
	scale   costScale
	stats   SenderStats
}

// NewSender returns a client's sender. The ring must hold more ticks than
// History: deferred values live in it. It refuses a Config that fails
// Validate for the ring's schema (a Rate below MinRate, with
// ErrRateBelowFloor).
func NewSender(sh *Shared, cfg Config) (*Sender, error) {
	if err := cfg.Validate(sh.Ring.Schema()); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	maxAge := sh.Ring.Size() - cfg.History - 2
	s := &Sender{
		cfg: cfg, sh: sh,
		hist:    newViewHistory(cfg.History + 1),
		perTick: cfg.Rate / cfg.TickRate,
		maxAge:  uint32(max(maxAge, 1)),
		waiting: make([]waiter, 0, 64),
		nextW:   make([]waiter, 0, 64),
		scratch: &sh.scratch,
	}
	return s, nil
}

// LastView returns the view the last Append sent, as a snapshot: what the
// client holds once it decodes that packet. It is valid until the next
// Append of any Sender sharing s's Shared.
func (s *Sender) LastView() *snapshot.Snapshot { return s.sh.cur }

// MaxDeferral is the bound on how long a changed entity in view can wait:
// beyond it the sender sends it whatever the budget.
func (s *Sender) MaxDeferral() uint32 { return s.maxAge }

// Ack records that the client decoded tick; acks never go backwards.
func (s *Sender) Ack(tick uint32) {
	if tick > s.acked && tick <= s.stats.lastTick() {
		s.acked = tick
	}
}

// AckedTick returns the newest acknowledged tick.
func (s *Sender) AckedTick() uint32 { return s.acked }

// Stats returns the sender's counters.
func (s *Sender) Stats() SenderStats { return s.stats }

// HistoryBytes returns the memory of this client's view history.
func (s *Sender) HistoryBytes() int { return s.hist.Bytes() }

// Reset starts a new epoch: no baseline, no waiting entities.
func (s *Sender) Reset() {
	s.hist.reset()
	s.acked, s.lastFull = 0, 0
	s.waiting = s.waiting[:0]
}

func (st *SenderStats) lastTick() uint32 { return st.newest }

// Append builds this client's view of tick from its candidates (reordered in
// place), appends the packet to dst and records the view. The world of tick
// must be committed to the ring. When the report says Skipped, dst is
// returned unchanged and nothing is recorded.
//
// A packet goes every tick the client has a usable baseline, and every
// FullInterval ticks when it has none, whatever the budget: the header and
// the Must candidates are always written, and the budget only decides what
// else goes. What a packet costs beyond the tick's allowance is a debt paid
// from the next ticks' allowances; while the budget is in debt the packets
// are Lean.
func (s *Sender) Append(dst []byte, tick uint32, cands []Candidate) ([]byte, Report) {
	ring := s.sh.Ring
	world := ring.At(tick)
	cands = s.sh.sortByRow(cands, world.Len())

	var rep Report
	base, minSrc, ok := s.hist.get(s.acked)
	usable := s.acked != 0 && ok && tick-s.acked <= uint32(s.cfg.History) && (len(base) == 0 || ring.Holds(minSrc))
	switch {
	case usable:
		rep.Why = snapstream.SentDelta
	case s.acked == 0:
		rep.Why = snapstream.FullNoAck
	default:
		rep.Why = snapstream.FullTooOld
	}
	if !usable {
		base = nil
		if s.lastFull != 0 && tick-s.lastFull < uint32(s.cfg.FullInterval) {
			return s.skip(dst, rep)
		}
	}
	s.tokens = min(s.tokens+s.perTick, s.perTick)
	// A budget short of the header leaves nothing for the optional
	// entities; the Must ones go regardless (choose).
	allowance := max(min(s.tokens-float64(s.cfg.Overhead), float64(s.cfg.PacketCap)), 0)

	budget := int32(allowance*8) - headerBits
	rep.Lean = budget < 0
	s.merge(tick, base, cands, world, &rep)
	budget -= int32(rep.Removed) * removedBits
	s.choose(s.scale.estimated(budget))

	for attempt := 0; ; attempt++ {
		var out []Entry
		switch {
		case s.allSent && s.inSlot:
			// The view merge built, every changed and new entity sent, in
			// the history's storage.
			out = s.hist.slot(tick)[:len(s.full)]
		case s.allSent:
			// The same, written elsewhere: commit copies it in.
			out = s.full
		default:
			if s.inSlot {
				// build writes the history's storage: it reads a copy.
				s.full = append(s.spare[:0], s.full...)
				s.spare, s.inSlot = s.full, false
			}
			out = s.build(tick, world)
		}
		start := len(dst)
		dst = s.encode(dst, tick, usable, &rep)
		n := len(dst) - start
		if n <= s.cfg.PacketCap || attempt == 8 || !s.dropLowest(n-s.cfg.PacketCap) {
			s.commit(tick, out, n, &rep)
			return dst, rep
		}
		dst = dst[:start]
	}
}

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

func (s *Sender) skip(dst []byte, rep Report) ([]byte, Report) {
	rep.Skipped = true
	s.stats.Skipped++
	return dst, rep
}

// merge walks the baseline view, the candidates and the waiting entities
// in slot order. It writes the view as if every changed and new entity is
// sent (full, and the values in the Shared's current snapshot), an item
// for each changed or new entity with their total cost, and, when the
// packet is a delta, the baseline's values in the Shared's base snapshot
// and how the two differ (the Shared's changes).
// An unchanged entity costs no item: one whose row held its value since
// the baseline's tick (the ring says so) needs no look-up of that value.
//
// It goes in passes, each a short loop over the view with few variables
// (the compiler keeps them in registers, where one loop doing everything
// spilled most of them on every entity): place the candidates, join them
// with the baseline, find the changes, then settle the items' priorities.
func (s *Sender) merge(tick uint32, base []Entry, cands []Candidate, world *snapshot.Snapshot, rep *Report) {
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
	rep.Removed += len(chg.Removed)
	src := cursor{ring: sh.Ring}
	for _, i := range chg.Removed {
		src.seek(base[i].Source)
		copyRow(baseVals[int(i)*len(sh.fields):][:len(sh.fields)], src.snap.Row(int(src.rowOf[base[i].Slot])))
	}
	s.items = s.changes(tick, base, baseOf, cands, &src)
	s.order, s.total = s.settle(tick, cands, rep.Lean)
	s.full, s.inSlot = out, inSlot
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
func (s *Sender) settle(tick uint32, cands []Candidate, lean bool) ([]int32, int64) {
	order := slices.Grow(s.order[:0], len(s.items))[:len(s.items)]
	total := int64(0)
	curIDs := s.sh.cur.IDs()
	waiting := s.waiting
	w := 0
	for k := range s.items {
		it := &s.items[k]
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
		if s.baseOf[it.at] == replacing {
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

// choose marks what this tick's budget sends, highest key first. When
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
// into the Shared's current snapshot: the view merge built, less the new
// entities not sent, the changed ones not sent keeping their baseline value.
func (s *Sender) build(tick uint32, world *snapshot.Snapshot) []Entry {
	ring := s.sh.Ring
	now, src := cursor{ring: ring}, cursor{ring: ring}
	now.seek(tick)
	cur := s.sh.cur
	cur.Reset()
	out := s.hist.slot(tick)
	items := s.items
	for j, e := range s.full {
		id := snapshot.EntityID{Index: e.Slot, Generation: e.Generation}
		if len(items) == 0 || items[0].at != int32(j) {
			// Unchanged.
			out = append(out, e)
			copyRow(cur.AppendUnchecked(id), world.Row(int(now.rowOf[e.Slot])))
			continue
		}
		it := &items[0]
		items = items[1:]
		switch {
		case it.chosen:
			out = append(out, e)
			copyRow(cur.AppendUnchecked(id), world.Row(int(it.row)))
		case !it.isNew:
			// Deferred: the client keeps its baseline value, which the
			// ring still holds.
			out = append(out, Entry{Slot: e.Slot, Generation: e.Generation, Source: it.src})
			src.seek(it.src)
			copyRow(cur.AppendUnchecked(id), src.snap.Row(int(src.rowOf[e.Slot])))
		}
	}
	return out
}

func (s *Sender) encode(dst []byte, tick uint32, usable bool, rep *Report) []byte {
	sh := s.sh
	if usable {
		start := len(dst)
		if s.allSent && sh.changesFmt != nil {
			// The view merge built: the changes it listed are the packet's.
			dst = sh.changesFmt.AppendDeltaChanges(dst, tick, s.acked, sh.base, sh.cur, &sh.changes)
		} else {
			dst = sh.Format.AppendDelta(dst, tick, s.acked, sh.base, sh.cur)
		}
		if snapstream.DeltaSmaller(sh.Format, len(dst)-start, sh.cur) {
			rep.Why = snapstream.SentDelta
			return dst
		}
		dst = dst[:start]
		rep.Why = snapstream.FullNotSmaller
	}
	return sh.Format.AppendFull(dst, tick, sh.cur)
}

// commit records the view and settles accumulators, budget and counters.
func (s *Sender) commit(tick uint32, out []Entry, n int, rep *Report) {
	s.tokens -= float64(n + s.cfg.Overhead)
	rep.Bytes = n
	rep.InView = len(out)
	minSrc := uint32(0)
	if len(out) > 0 {
		minSrc = tick
	}
	next := s.nextW[:0]
	if rep.Why == snapstream.SentDelta {
		s.scale.observe(s.chosenCost(), n*8-headerBits-rep.Removed*removedBits)
	}
	if s.allSent {
		// Nothing waits: every value in view is this tick's.
		rep.Sent = len(s.items)
		s.hist.commit(tick, out, minSrc)
		s.waiting, s.nextW = next, s.waiting
		s.record(tick, n, rep)
		return
	}
	for k := range s.items {
		it := &s.items[k]
		if it.chosen {
			rep.Sent++
			continue
		}
		rep.Deferred++
		rep.OldestDeferral = max(rep.OldestDeferral, tick-it.since)
		next = append(next, waiter{slot: it.slot, since: it.since, acc: it.acc})
		if !it.isNew {
			minSrc = min(minSrc, it.src)
		}
	}
	rep.OldestValue = tick - minSrc
	if len(out) == 0 {
		rep.OldestValue = 0
	}
	s.hist.commit(tick, out, minSrc)
	// Entities that waited last tick but are not waiting now (sent, left,
	// unchanged, or no candidate) are forgotten with the old list.
	s.waiting, s.nextW = next, s.waiting
	s.record(tick, n, rep)
}

// record counts a packet in the sender's stats.
func (s *Sender) record(tick uint32, n int, rep *Report) {
	if s.stats.add(tick, s.acked, n, rep) {
		s.lastFull = tick
	}
}

// add counts a packet of n bytes sent at tick with a client that
// acknowledged acked; it reports whether the packet was a full view.
func (st *SenderStats) add(tick, acked uint32, n int, rep *Report) (full bool) {
	st.newest = tick
	st.Packets++
	st.Bytes += uint64(n)
	st.EntitiesSent += uint64(rep.Sent)
	st.Deferrals += uint64(rep.Deferred)
	st.MaxDeferral = max(st.MaxDeferral, rep.OldestDeferral)
	if rep.Lean {
		st.Lean++
	} else {
		st.MaxValueAge = max(st.MaxValueAge, rep.OldestValue)
	}
	switch rep.Why {
	case snapstream.SentDelta:
		st.Deltas++
		st.SenderStats.BaselineAge += uint64(tick - acked)
	case snapstream.FullNoAck:
		st.FullNoAck++
	case snapstream.FullTooOld:
		st.FullTooOld++
	case snapstream.FullNotSmaller:
		st.FullNotSmaller++
	}
	return rep.Why != snapstream.SentDelta
}
