package sound

import (
	"time"

	"github.com/sightline-game/sightline/game/arena"
)

// maxPickups bounds the pickup records tracked (their index); the match
// has arena.MaxPickups at most.
const maxPickups = arena.MaxPickups

// pickupState is a pickup record as the last read showed it.
type pickupState struct {
	seen uint32 // the read that last held it; 0: never
	gen  uint16
	kind uint8
	x, y float64
}

// recordState is the Mixer's memory of the records.
type recordState struct {
	pickups   []pickupState // by record index
	reads     uint32
	round     uint32
	haveRound bool
	reading   bool
}

// BeginRecords starts a read of the client's records: call Pickup for
// every pickup record and Clock for the clock record, then EndRecords.
// Reads compare with the previous one; the first plays nothing.
func (m *Mixer) BeginRecords() {
	m.recs.reads++
	m.recs.reading = true
}

// Pickup reports pickup record index (generation gen) lying at (x, y) in
// world px, of arena pickup kind (arena.PickupHealth or another).
func (m *Mixer) Pickup(now time.Time, index uint32, gen uint16, x, y float64, kind uint8) {
	r := &m.recs
	if !r.reading || index >= maxPickups {
		return
	}
	if int(index) >= len(r.pickups) {
		r.pickups = append(r.pickups, make([]pickupState, int(index)+1-len(r.pickups))...)
	}
	p := &r.pickups[index]
	if p.seen != 0 && p.seen == r.reads-1 && p.gen != gen {
		// Taken and back elsewhere between two reads.
		m.pickupTaken(now, p)
	}
	*p = pickupState{seen: r.reads, gen: gen, kind: kind, x: x, y: y}
}

// Clock reports the clock record's round number: when it goes up, the
// round_start sound plays.
func (m *Mixer) Clock(now time.Time, round uint32) {
	r := &m.recs
	if r.haveRound && round > r.round {
		m.playCentred(now, RoundStart, 1)
	}
	r.round, r.haveRound = round, true
}

// EndRecords ends a read: every pickup record the previous read held and
// this one did not was taken, and plays pickup (a health pack) or power
// (a weapon or power-up) where it lay.
func (m *Mixer) EndRecords(now time.Time) {
	r := &m.recs
	r.reading = false
	if r.reads < 2 {
		return
	}
	for i := range r.pickups {
		if p := &r.pickups[i]; p.seen == r.reads-1 {
			m.pickupTaken(now, p)
			p.seen = 0
		}
	}
}

func (m *Mixer) pickupTaken(now time.Time, p *pickupState) {
	s := Power
	if p.kind == arena.PickupHealth {
		s = Pickup
	}
	m.playAt(now, s, p.x, p.y, 1)
}
