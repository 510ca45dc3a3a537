package snapstream

import "github.com/sightline-game/sightline/netcode/snapshot"

// Header is what a snapshot packet says about itself before it is decoded.
type Header struct {
	// Tick is the tick whose state the packet carries.
	Tick uint32
	// Baseline is the tick the packet is a delta against; 0 for a full snapshot.
	Baseline uint32
}

// Full reports whether the packet needs no baseline.
func (h Header) Full() bool { return h.Baseline == 0 }

// Format is one wire format for snapshot packets. The Sender and Receiver
// handle baselines, histories and acks; a Format only turns snapshots into
// bytes and back. Ticks start at 1: tick 0 means "none".
//
// Encoders append to dst and return it; they must not allocate when dst has
// room. Decoders treat p as hostile: they return an error rather than panic,
// never allocate in proportion to what the packet claims, and leave out in an
// unspecified state on error (the Receiver decodes into scratch space).
type Format interface {
	// AppendFull appends a packet carrying all of cur.
	AppendFull(dst []byte, tick uint32, cur *snapshot.Snapshot) []byte
	// FullLen returns the length AppendFull would produce, without encoding.
	FullLen(cur *snapshot.Snapshot) int
	// AppendDelta appends a packet carrying cur as a delta against base, the
	// snapshot of tick baseline (baseline < tick).
	AppendDelta(dst []byte, tick, baseline uint32, base, cur *snapshot.Snapshot) []byte
	// ReadHeader reads a packet's header. newest is the receiver's newest
	// decoded tick (0 if none), for formats that send ticks truncated.
	ReadHeader(p []byte, newest uint32) (Header, error)
	// Decode decodes p into out. base is the snapshot of h.Baseline, or nil
	// when h.Full(). h is what ReadHeader returned for p.
	Decode(p []byte, h Header, base, out *snapshot.Snapshot) error
}

// A FullBounder is a Format that bounds the length of a full packet
// cheaply, without walking the snapshot: FullLenAtLeast(cur) is at most
// FullLen(cur). Senders compare a delta with the bound first, and compute
// FullLen only when the delta is not shorter than it.
type FullBounder interface {
	FullLenAtLeast(cur *snapshot.Snapshot) int
}

// A ChangesAppender is a Format whose deltas can start from the caller's
// account of how cur differs from base, which must be exact, rather than
// compare the two snapshots itself. A sender that builds each view beside
// its baseline knows the changes as it goes (package view does).
// AppendDeltaChanges writes the packet AppendDelta would.
type ChangesAppender interface {
	AppendDeltaChanges(dst []byte, tick, baseline uint32, base, cur *snapshot.Snapshot, ch *snapshot.Changes) []byte
}

// DeltaSmaller reports whether a delta of n bytes is shorter than f's full
// packet of cur, computing FullLen only when f's bound does not tell.
func DeltaSmaller(f Format, n int, cur *snapshot.Snapshot) bool {
	if b, ok := f.(FullBounder); ok && n < b.FullLenAtLeast(cur) {
		return true
	}
	return n < f.FullLen(cur)
}
