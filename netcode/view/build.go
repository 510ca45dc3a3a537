package view

import "github.com/sightline-game/sightline/netcode/snapshot"

// built is the view a packet leaves the client with.
type built struct {
	// view is in the history's storage for the tick, or elsewhere (the
	// merge's spare): commit copies it in.
	view []Entry
	// values are view's values (the Shared's current snapshot).
	values *snapshot.Snapshot
	// changes is how values differ from the baseline's, when merge
	// listed it (the view is the merged one); else nil.
	changes *snapshot.Changes
}

// setAside moves m's view out of the history's storage for the tick, which
// build writes when the choice leaves some entity out. It is m, with its
// view in the scratch's spare, once set aside.
func (s *Sender) setAside(m merged) merged {
	if m.inSlot {
		m.view = append(s.spare[:0], m.view...)
		s.spare, m.inSlot = m.view, false
	}
	return m
}

// build returns the view the packet of tick leaves the client with, as c
// chose of m, and writes its values over m's (the Shared's current
// snapshot): the merged view, less the new entities not sent, the changed ones not
// sent keeping their baseline value. When c chose everything, that is the
// merged view, whose values merge wrote. Otherwise m's view must be set
// aside: build writes the history's storage.
func (s *Sender) build(tick uint32, world *snapshot.Snapshot, m merged, c choice) built {
	if c.all {
		return built{view: m.view, values: m.values, changes: m.changes}
	}
	ring := s.sh.Ring
	now, src := cursor{ring: ring}, cursor{ring: ring}
	now.seek(tick)
	cur := m.values
	cur.Reset()
	out := s.hist.slot(tick)
	items := m.items
	for j, e := range m.view {
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
	return built{view: out, values: cur}
}
