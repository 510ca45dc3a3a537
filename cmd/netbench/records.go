package main

import (
	"slices"

	"github.com/sightline-game/sightline/game/arena"
)

// recordBook holds the match's live records (pickups, loadouts, scores, the
// clock), in id order, as a client holds them once its record stream has
// caught up: what a bot's brain reads to find spread guns and power-ups.
type recordBook struct {
	recs []bookRecord
}

type bookRecord struct {
	id      uint32
	gen     uint16
	payload []byte
}

// update applies one changed record (server.Match.ChangedRecords).
func (b *recordBook) update(id uint32, gen uint16, payload []byte, deleted bool) {
	i, found := slices.BinarySearchFunc(b.recs, id, func(r bookRecord, id uint32) int {
		switch {
		case r.id < id:
			return -1
		case r.id > id:
			return 1
		}
		return 0
	})
	switch {
	case deleted && found:
		b.recs = slices.Delete(b.recs, i, i+1)
	case deleted:
	case found:
		b.recs[i].gen = gen
		b.recs[i].payload = append(b.recs[i].payload[:0], payload...)
	default:
		b.recs = slices.Insert(b.recs, i, bookRecord{id: id, gen: gen, payload: slices.Clone(payload)})
	}
}

// botRecords is the record book as one bot reads it (brain.Records).
type botRecords struct {
	book *recordBook
	id   arena.PlayerID
}

// Player returns the bot's player id.
func (r *botRecords) Player() (arena.PlayerID, bool) { return r.id, true }

// Records calls fn for every live record, in id order.
func (r *botRecords) Records(fn func(id uint32, gen uint16, payload []byte)) {
	for _, rec := range r.book.recs {
		fn(rec.id, rec.gen, rec.payload)
	}
}
