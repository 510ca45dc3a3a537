package snapstream

import (
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// DefaultHistory is the number of ticks a delta may reach back by default.
const DefaultHistory = 16

// Why tells why a packet is full or what its baseline is.
type Why uint8

// Reasons for the shape of a packet.
const (
	SentDelta      Why = iota // a delta against the acknowledged tick
	FullNoAck                 // no ack has arrived in this epoch
	FullTooOld                // the acknowledged tick is more than History ticks old or left the ring
	FullNotSmaller            // the delta would not have been smaller
)

// SenderStats counts what a Sender sent.
type SenderStats struct {
	Packets, Bytes uint64
	Deltas         uint64
	// Full snapshots, by reason.
	FullNoAck, FullTooOld, FullNotSmaller uint64
	// BaselineAge sums tick-baseline over deltas (divide by Deltas for the mean).
	BaselineAge uint64
}

// Sender encodes one client's snapshot stream. One per client; not safe for
// concurrent use.
type Sender struct {
	format  Format
	history int
	sent    ring
	acked   uint32
	newest  uint32
	stats   SenderStats
}

// NewSender returns a sender that keeps history+1 snapshots (history <= 0
// means DefaultHistory), so that a delta may reach back history ticks.
func NewSender(f Format, s *snapshot.Schema, history int) *Sender {
	if history <= 0 {
		history = DefaultHistory
	}
	return &Sender{format: f, history: history, sent: newRing(s, history+1)}
}

// Ack records that the client decoded tick. Acks may arrive late, twice or
// out of order: the acknowledged tick never goes backwards, and an ack for a
// tick not sent yet is ignored.
func (s *Sender) Ack(tick uint32) {
	if tick > s.acked && tick <= s.newest {
		s.acked = tick
	}
}

// AckedTick returns the newest acknowledged tick, 0 if none.
func (s *Sender) AckedTick() uint32 { return s.acked }

// History returns how many ticks a delta may reach back.
func (s *Sender) History() int { return s.history }

// Stats returns counters since the sender was made.
func (s *Sender) Stats() SenderStats { return s.stats }

// Reset starts a new epoch: forgets every ack and sent snapshot. Ticks must
// keep increasing across epochs, or the client must reset too.
func (s *Sender) Reset() {
	s.sent.reset()
	s.acked, s.newest = 0, 0
}

// Append encodes cur, the state of tick, appends the packet to dst and records
// cur as sent. tick must be greater than any tick appended before. The
// returned Why tells the packet's shape.
func (s *Sender) Append(dst []byte, tick uint32, cur *snapshot.Snapshot) ([]byte, Why) {
	start := len(dst)
	why := SentDelta
	base := s.sent.get(s.acked)
	switch {
	case s.acked == 0:
		why = FullNoAck
	case base == nil || tick-s.acked > uint32(s.history):
		why = FullTooOld
	}
	if why == SentDelta {
		dst = s.format.AppendDelta(dst, tick, s.acked, base, cur)
		if !DeltaSmaller(s.format, len(dst)-start, cur) {
			dst, why = dst[:start], FullNotSmaller
		}
	}
	if why != SentDelta {
		dst = s.format.AppendFull(dst, tick, cur)
	}
	s.sent.slot(tick).CopyFrom(cur)
	s.newest = tick
	s.count(why, len(dst)-start, tick)
	return dst, why
}

func (s *Sender) count(why Why, n int, tick uint32) {
	st := &s.stats
	st.Packets++
	st.Bytes += uint64(n)
	switch why {
	case SentDelta:
		st.Deltas++
		st.BaselineAge += uint64(tick - s.acked)
	case FullNoAck:
		st.FullNoAck++
	case FullTooOld:
		st.FullTooOld++
	case FullNotSmaller:
		st.FullNotSmaller++
	}
}
