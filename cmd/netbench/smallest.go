package main

import (
	"math"

	"github.com/sightline-game/sightline/netcode/delta"
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
)

// smallest makes a format choose, packet by packet, between its delta and
// its full packet (a full packet when the delta is not smaller), and tells
// its sender that every delta is smaller than a full packet.
//
// The view sender rate-limits full views to a client without a usable
// baseline, counting a full packet sent because the delta was not smaller
// as one of them. Formats differ in when their deltas lose to their full
// packets, so that count would make one format's sender skip a tick
// another's sends, and the formats' links, which draw their losses packet
// by packet, would then lose different packets. Behind smallest every
// format sends on the same ticks, over the same losses, the same views.
// The wire is unchanged: the receiver decodes with the format itself.
type smallest struct {
	snapstream.Format
	fulls uint64 // deltas replaced by full packets

	// For a format that says where a delta's bits went (the project's):
	// the deltas sent, their bytes and their sections summed.
	deltas, deltaBytes uint64
	bits               delta.Sizes
}

// sizer is a format that says where its last delta's bits went.
type sizer interface{ LastSizes() delta.Sizes }

// AppendDelta appends the format's delta, or its full packet when the
// delta is not smaller.
func (s *smallest) AppendDelta(dst []byte, tick, baseline uint32, base, cur *snapshot.Snapshot) []byte {
	start := len(dst)
	dst = s.Format.AppendDelta(dst, tick, baseline, base, cur)
	if len(dst)-start >= s.Format.FullLen(cur) {
		s.fulls++
		return s.Format.AppendFull(dst[:start], tick, cur)
	}
	if z, ok := s.Format.(sizer); ok {
		s.deltas++
		s.deltaBytes += uint64(len(dst) - start)
		s.bits.Add(z.LastSizes())
	}
	return dst
}

// FullLen reports a full packet larger than any delta: AppendDelta has
// already chosen.
func (s *smallest) FullLen(*snapshot.Snapshot) int { return math.MaxInt }
