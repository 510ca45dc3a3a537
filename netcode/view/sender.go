package view

import (
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

// waiter is an entity left waiting by the last packet: its slot, the tick
// it began waiting and the priority it has accumulated since.
type waiter struct {
	slot  uint16
	since uint32
	acc   float32
}

// Sender builds and encodes one client's views. Not safe for concurrent use.
//
// It holds only what lasts from one tick to the next: the client's view
// history and acknowledgement, the token bucket, the entities waiting with
// their accumulated priorities, the cost scale, the counters, and scratch
// space reused every tick. What one tick decides goes from phase to phase
// of Append as values (see Append).
type Sender struct {
	cfg      Config
	sh       *Shared
	hist     ViewHistory
	acked    uint32
	lastFull uint32  // tick of the last full view sent
	tokens   float64 // the token bucket, in bytes
	perTick  float64
	maxAge   uint32 // a deferred value older than this is sent regardless

	// waiting holds, in slot order, the entities the last packet left
	// waiting; merge walks it beside the candidates, and commit writes
	// the next list in nextW and swaps the two.
	waiting []waiter
	nextW   []waiter
	*scratch
	scale costScale
	stats SenderStats
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
//
// Append is the sender's pipeline, each phase handing the next its result:
// the baseline to encode against, the tick's budget, the merge of baseline
// and candidates, the choice of what the budget sends, the view built of
// that choice, the packet encoded (rebuilt with less while over the cap),
// and the commit that records them and makes the report.
func (s *Sender) Append(dst []byte, tick uint32, cands []Candidate) ([]byte, Report) {
	world := s.sh.Ring.At(tick)
	cands = s.sh.sortByRow(cands, world.Len())
	bl := s.pickBaseline(tick)
	if !bl.usable && s.fullTooSoon(tick) {
		return s.skip(dst, bl.why)
	}
	b := s.allowance()
	m := s.merge(tick, bl.view, cands, world, b.lean)
	// The removals are paid before any entity.
	c := s.choose(m, s.scale.estimated(b.bits-int32(m.removed)*removedBits))
	start := len(dst)
	var v built
	var p packet
	for attempt := 0; ; attempt++ {
		if !c.all {
			m = s.setAside(m) // build writes where m's view may be
		}
		v = s.build(tick, world, m, c)
		dst, p = s.encode(dst[:start], tick, bl, m.base, v)
		over := p.n - s.cfg.PacketCap
		if over <= 0 || attempt == 8 {
			break
		}
		var dropped bool
		if c, dropped = s.dropLowest(m, c, over); !dropped {
			break
		}
	}
	return dst, s.commit(tick, b, m, c, v, p)
}

// baseline is the view a packet is encoded against: the newest the client
// acknowledged, if it is usable.
type baseline struct {
	view   []Entry // nil when not usable: the packet is a full view
	tick   uint32  // the acknowledged tick
	usable bool
	// why is SentDelta when usable, else why the packet is a full view.
	why snapstream.Why
}

// pickBaseline returns the baseline for a packet of tick: the acknowledged
// view, usable if the history still holds it, it is at most History ticks
// old and the ring still holds its oldest value.
func (s *Sender) pickBaseline(tick uint32) baseline {
	view, minSrc, ok := s.hist.get(s.acked)
	b := baseline{view: view, tick: s.acked}
	b.usable = s.acked != 0 && ok && tick-s.acked <= uint32(s.cfg.History) && (len(view) == 0 || s.sh.Ring.Holds(minSrc))
	switch {
	case b.usable:
		b.why = snapstream.SentDelta
	case s.acked == 0:
		b.why = snapstream.FullNoAck
	default:
		b.why = snapstream.FullTooOld
	}
	if !b.usable {
		b.view = nil
	}
	return b
}

// fullTooSoon reports whether a full view at tick would follow the last
// one by less than FullInterval ticks.
func (s *Sender) fullTooSoon(tick uint32) bool {
	return s.lastFull != 0 && tick-s.lastFull < uint32(s.cfg.FullInterval)
}

// skip reports a tick that sends nothing: a full view too soon after the last.
func (s *Sender) skip(dst []byte, why snapstream.Why) ([]byte, Report) {
	s.stats.Skipped++
	return dst, Report{Why: why, Skipped: true}
}

// budget is what a tick's allowance leaves for entities once the packet's
// header is paid, in bits the format writes.
type budget struct {
	bits int32
	// lean says the allowance did not cover the header (bits < 0): the
	// budget is in debt.
	lean bool
}

// allowance refills the token bucket for a tick and returns what it
// allows. A budget short of the header leaves nothing for the optional
// entities; the Must ones go regardless (choose).
func (s *Sender) allowance() budget {
	s.tokens = min(s.tokens+s.perTick, s.perTick)
	bytes := max(min(s.tokens-float64(s.cfg.Overhead), float64(s.cfg.PacketCap)), 0)
	bits := int32(bytes*8) - headerBits
	return budget{bits: bits, lean: bits < 0}
}
