package view

import "github.com/sightline-game/sightline/netcode/snapstream"

// commit records the view v that packet p leaves the client with, carries
// over what waits (the items c left out of m) with their accumulated
// priorities, settles the budget b's bucket and the counters, and returns
// the tick's report.
func (s *Sender) commit(tick uint32, b budget, m merged, c choice, v built, p packet) Report {
	out, n := v.view, p.n
	s.tokens -= float64(n + s.cfg.Overhead)
	rep := Report{Why: p.why, Lean: b.lean, Removed: m.removed, Bytes: n, InView: len(out)}
	minSrc := uint32(0)
	if len(out) > 0 {
		minSrc = tick
	}
	next := s.nextW[:0]
	if rep.Why == snapstream.SentDelta {
		s.scale.observe(chosenCost(m, c), n*8-headerBits-rep.Removed*removedBits)
	}
	if c.all {
		// Nothing waits: every value in view is this tick's.
		rep.Sent = len(m.items)
		s.hist.commit(tick, out, minSrc)
		s.waiting, s.nextW = next, s.waiting
		s.record(tick, n, &rep)
		return rep
	}
	for k := range m.items {
		it := &m.items[k]
		if it.chosen {
			rep.Sent++
			continue
		}
		rep.Deferred++
		rep.OldestDeferral = max(rep.OldestDeferral, tick-it.since)
		next = append(next, waiter{slot: it.slot, since: it.since, acc: it.acc})
		if !it.isNew {
			minSrc = min(minSrc, it.src)
		}
	}
	rep.OldestValue = tick - minSrc
	if len(out) == 0 {
		rep.OldestValue = 0
	}
	s.hist.commit(tick, out, minSrc)
	// Entities that waited last tick but are not waiting now (sent, left,
	// unchanged, or no candidate) are forgotten with the old list.
	s.waiting, s.nextW = next, s.waiting
	s.record(tick, n, &rep)
	return rep
}

// record counts a packet in the sender's stats.
func (s *Sender) record(tick uint32, n int, rep *Report) {
	if s.stats.add(tick, s.acked, n, rep) {
		s.lastFull = tick
	}
}

// add counts a packet of n bytes sent at tick with a client that
// acknowledged acked; it reports whether the packet was a full view.
func (st *SenderStats) add(tick, acked uint32, n int, rep *Report) (full bool) {
	st.newest = tick
	st.Packets++
	st.Bytes += uint64(n)
	st.EntitiesSent += uint64(rep.Sent)
	st.Deferrals += uint64(rep.Deferred)
	st.MaxDeferral = max(st.MaxDeferral, rep.OldestDeferral)
	if rep.Lean {
		st.Lean++
	} else {
		st.MaxValueAge = max(st.MaxValueAge, rep.OldestValue)
	}
	switch rep.Why {
	case snapstream.SentDelta:
		st.Deltas++
		st.SenderStats.BaselineAge += uint64(tick - acked)
	case snapstream.FullNoAck:
		st.FullNoAck++
	case snapstream.FullTooOld:
		st.FullTooOld++
	case snapstream.FullNotSmaller:
		st.FullNotSmaller++
	}
	return rep.Why != snapstream.SentDelta
}
