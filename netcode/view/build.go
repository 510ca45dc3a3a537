package view

import (
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
)

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
