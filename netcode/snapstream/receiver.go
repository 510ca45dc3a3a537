package snapstream

import (
	"fmt"

	"github.com/sightline-game/sightline/netcode/snapshot"
)

// ReceiverStats counts what a Receiver did with the packets it was given.
type ReceiverStats struct {
	Decoded    uint64 // packets decoded and stored
	Stale      uint64 // at or below the newest tick: ignored
	NoBaseline uint64 // deltas whose baseline was not held: dropped
	Malformed  uint64 // undecodable: dropped
}

// Receiver decodes one snapshot stream. Not safe for concurrent use.
type Receiver struct {
	format  Format
	decoded ring
	scratch *snapshot.Snapshot
	newest  uint32
	stats   ReceiverStats
}

// NewReceiver returns a receiver that keeps history+1 decoded snapshots
// (history <= 0 means DefaultHistory): as many as the sender may reach back.
func NewReceiver(f Format, s *snapshot.Schema, history int) *Receiver {
	if history <= 0 {
		history = DefaultHistory
	}
	return &Receiver{format: f, decoded: newRing(s, history+1), scratch: snapshot.New(s)}
}

// Reserve gives every snapshot the receiver keeps room for entities
// entities, so that decoding views up to that size never allocates: memory
// that would otherwise grow as the views do is taken at once.
func (r *Receiver) Reserve(entities int) {
	for _, s := range r.decoded.snaps {
		s.Grow(entities - s.Len())
	}
	r.scratch.Grow(entities - r.scratch.Len())
}

// Receive decodes packet p onto the baseline it names and stores the result.
// It returns the packet's header. On any error nothing changes: the packet is
// stale (ErrStale), its baseline is not held (ErrNoBaseline), or it is
// undecodable (ErrDecode).
func (r *Receiver) Receive(p []byte) (Header, error) {
	h, err := r.format.ReadHeader(p, r.newest)
	if err != nil {
		r.stats.Malformed++
		return h, fmt.Errorf("%w: %w", ErrDecode, err)
	}
	if h.Tick <= r.newest {
		r.stats.Stale++
		return h, ErrStale
	}
	var base *snapshot.Snapshot
	if !h.Full() {
		if base = r.decoded.get(h.Baseline); base == nil {
			r.stats.NoBaseline++
			return h, ErrNoBaseline
		}
	}
	if err := r.format.Decode(p, h, base, r.scratch); err != nil {
		r.stats.Malformed++
		return h, fmt.Errorf("%w: %w", ErrDecode, err)
	}
	r.scratch = r.decoded.swap(h.Tick, r.scratch)
	r.newest = h.Tick
	r.stats.Decoded++
	return h, nil
}

// Newest returns the newest decoded tick (0 if none): the tick to acknowledge.
func (r *Receiver) Newest() uint32 { return r.newest }

// Snapshot returns the decoded snapshot of tick, or nil if not held. It stays
// valid until the ring reuses its slot, History+1 ticks later.
func (r *Receiver) Snapshot(tick uint32) *snapshot.Snapshot { return r.decoded.get(tick) }

// Stats returns counters since the receiver was made.
func (r *Receiver) Stats() ReceiverStats { return r.stats }

// Reset starts a new epoch: forgets every decoded snapshot.
func (r *Receiver) Reset() {
	r.decoded.reset()
	r.newest = 0
}
