package view

import (
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
)

// packet is what encode wrote.
type packet struct {
	n   int            // its bytes
	why snapstream.Why // SentDelta, or why it is a full view
}

// encode appends the packet of tick to dst: the built view's values as a
// delta against the baseline's values (base) if b is usable and the delta
// is the smaller, else as a full view. When merge listed how the built
// view differs from the baseline, a Format that takes that list is handed
// it.
func (s *Sender) encode(dst []byte, tick uint32, b baseline, base *snapshot.Snapshot, v built) ([]byte, packet) {
	sh := s.sh
	start := len(dst)
	if b.usable {
		if v.changes != nil && sh.changesFmt != nil {
			// The view merge built: the changes it listed are the packet's.
			dst = sh.changesFmt.AppendDeltaChanges(dst, tick, b.tick, base, v.values, v.changes)
		} else {
			dst = sh.Format.AppendDelta(dst, tick, b.tick, base, v.values)
		}
		if snapstream.DeltaSmaller(sh.Format, len(dst)-start, v.values) {
			return dst, packet{n: len(dst) - start, why: snapstream.SentDelta}
		}
		dst = dst[:start]
		b.why = snapstream.FullNotSmaller
	}
	dst = sh.Format.AppendFull(dst, tick, v.values)
	return dst, packet{n: len(dst) - start, why: b.why}
}
