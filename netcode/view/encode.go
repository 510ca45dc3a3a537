package view

import "github.com/sightline-game/sightline/netcode/snapstream"

// packet is what encode wrote.
type packet struct {
	n   int            // its bytes
	why snapstream.Why // SentDelta, or why it is a full view
}

// encode appends the packet of tick to dst: the Shared's current snapshot
// (the built view) as a delta against the baseline's values (the Shared's
// base snapshot) if b is usable and the delta is the smaller, else as a
// full view. When c chose everything, the changes merge listed are the
// packet's, and a Format that takes them is handed them.
func (s *Sender) encode(dst []byte, tick uint32, b baseline, c choice) ([]byte, packet) {
	sh := s.sh
	start := len(dst)
	if b.usable {
		if c.all && sh.changesFmt != nil {
			// The view merge built: the changes it listed are the packet's.
			dst = sh.changesFmt.AppendDeltaChanges(dst, tick, b.tick, sh.base, sh.cur, &sh.changes)
		} else {
			dst = sh.Format.AppendDelta(dst, tick, b.tick, sh.base, sh.cur)
		}
		if snapstream.DeltaSmaller(sh.Format, len(dst)-start, sh.cur) {
			return dst, packet{n: len(dst) - start, why: snapstream.SentDelta}
		}
		dst = dst[:start]
		b.why = snapstream.FullNotSmaller
	}
	dst = sh.Format.AppendFull(dst, tick, sh.cur)
	return dst, packet{n: len(dst) - start, why: b.why}
}
