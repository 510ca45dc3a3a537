package smooth

import (
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// ReelTicks is how many ticks a [Reel] holds: a little over 4 s at 30 Hz,
// enough for a killcam's few seconds before a kill and the killer's view
// lag behind them.
const ReelTicks = 128

// reelEntities is how many entities a Reel's ticks hold before any grows:
// more than a player's view carries in a busy match.
const reelEntities = 192

// reelSlot is one tick a Reel holds: the quantized arena fields of its
// entities, and where the own player was drawn while the server applied
// that tick's input.
type reelSlot struct {
	tickSlot
	seq    uint32 // the own input the server applied in the tick
	hasSeq bool
}

// drawnSelf is where the own player was drawn while an input was the
// newest sent.
type drawnSelf struct {
	seq  uint32
	x, y float64
	ok   bool
}

// Reel keeps the last [ReelTicks] ticks a client decoded, for drawing the
// past again (the killcam): each tick's entities as a snapshot had them,
// and where the client drew its own player while each of its inputs was
// the newest, so that the tick the server applied an input in can say
// where its player saw itself then.
//
// Its storage is made once (NewReel) and then reused: a tick larger than
// any before grows its buffers once, and Push, NoteSelf, Applied and
// SampleAt allocate nothing after that. A Reel is not safe for concurrent
// use.
type Reel struct {
	slots  [ReelTicks]reelSlot
	newest uint32
	has    bool
	selves [ReelTicks]drawnSelf // by input sequence
}

// NewReel returns an empty reel with its storage made.
func NewReel() *Reel {
	r := &Reel{}
	for i := range r.slots {
		r.slots[i].ids = make([]snapshot.EntityID, 0, reelEntities)
		r.slots[i].rows = make([][rowLen]uint32, 0, reelEntities)
	}
	return r
}

// Push records the decoded state of tick (copying what it needs from s).
// A tick already held, or older than the whole window, is ignored; a nil
// snapshot or one without the arena's fields too.
func (r *Reel) Push(tick uint32, s *snapshot.Snapshot) {
	if s == nil || s.Schema() == nil || s.Schema().NumFields() < rowLen {
		return
	}
	slot := &r.slots[tick%ReelTicks]
	if r.has {
		if int32(tick-r.newest) <= -ReelTicks {
			return
		}
		if slot.ok && slot.tick == tick {
			return
		}
	}
	n := min(s.Len(), protocol.MaxEntities)
	slot.tick, slot.ok, slot.hasSeq = tick, true, false
	slot.ids = append(slot.ids[:0], s.IDs()[:n]...)
	if cap(slot.rows) < n {
		slot.rows = make([][rowLen]uint32, n, max(n, 2*cap(slot.rows)))
	}
	slot.rows = slot.rows[:n]
	for i := range n {
		copy(slot.rows[i][:], s.Row(i)[:rowLen])
	}
	if !r.has || int32(tick-r.newest) > 0 {
		r.newest, r.has = tick, true
	}
}

// NoteSelf records that the own player is drawn at (x, y) while input seq
// is the newest sent: call it every frame; the last call for an input
// stands for it.
func (r *Reel) NoteSelf(seq uint32, x, y float64) {
	r.selves[seq%ReelTicks] = drawnSelf{seq: seq, x: x, y: y, ok: true}
}

// Applied records that the server applied the own input seq in tick (a
// snapshot of the tick says so), which Push recorded before.
func (r *Reel) Applied(tick, seq uint32) {
	if s := r.slot(tick); s != nil {
		s.seq, s.hasSeq = seq, true
	}
}

// DrawnSelf returns where the own player was drawn while the input the
// server applied in tick was the newest sent: where its own screen had
// it in that tick. A client that sent two inputs between two frames drew
// no frame for the first: then the frame of the nearest input that has
// one (the next first), up to selfSearch inputs away. ok is false if the
// reel does not know.
func (r *Reel) DrawnSelf(tick uint32) (x, y float64, ok bool) {
	s := r.slot(tick)
	if s == nil || !s.hasSeq {
		return 0, 0, false
	}
	for k := range 2*selfSearch + 1 {
		seq := s.seq + uint32((k+1)/2) // 0, +1, -1, +2, -2, ...
		if k%2 == 0 {
			seq = s.seq - uint32(k/2)
		}
		if d := &r.selves[seq%ReelTicks]; d.ok && d.seq == seq {
			return d.x, d.y, true
		}
	}
	return 0, 0, false
}

// selfSearch is how many inputs away DrawnSelf looks for a frame drawn.
const selfSearch = 2

// slot returns the slot holding tick, or nil.
func (r *Reel) slot(tick uint32) *reelSlot {
	s := &r.slots[tick%ReelTicks]
	if !s.ok || s.tick != tick || !r.has || int32(r.newest-tick) >= ReelTicks {
		return nil
	}
	return s
}

// Newest returns the newest tick held, and whether any is.
func (r *Reel) Newest() (uint32, bool) { return r.newest, r.has }

// Holds reports whether the reel holds tick.
func (r *Reel) Holds(tick uint32) bool { return r.slot(tick) != nil }

// Oldest returns the oldest tick of the unbroken run of held ticks that
// ends at tick (tick itself if it is held and the one before is not), and
// whether tick is held.
func (r *Reel) Oldest(tick uint32) (uint32, bool) {
	if r.slot(tick) == nil {
		return 0, false
	}
	for k := 1; k < ReelTicks && r.slot(tick-1) != nil; k++ {
		tick--
	}
	return tick, true
}

// SampleAt calls fn for every entity as it was at time t (in ticks, with a
// fraction), in slot order: between the held ticks around t as an
// Interpolator draws them, or as the nearer held tick has them if only
// one of the two is held. It returns false, calling nothing, if neither
// is held.
func (r *Reel) SampleAt(t float64, fn func(id snapshot.EntityID, e Entity)) bool {
	if t < 0 {
		return false
	}
	ti := uint32(t)
	alpha := t - float64(ti)
	a, b := r.slot(ti), r.slot(ti+1)
	switch {
	case a != nil && b != nil:
		interpolate(&a.tickSlot, &b.tickSlot, alpha, fn)
	case a != nil && (alpha < 0.5 || b == nil):
		interpolate(&a.tickSlot, &a.tickSlot, 0, fn)
	case b != nil:
		interpolate(&b.tickSlot, &b.tickSlot, 0, fn)
	default:
		return false
	}
	return true
}

// Reset forgets every held tick and drawn position: for a new connection.
func (r *Reel) Reset() {
	for i := range r.slots {
		r.slots[i].ok = false
	}
	clear(r.selves[:])
	r.has = false
}
