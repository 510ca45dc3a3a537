package replica

import (
	"fmt"
	"iter"
)

// Defaults for a zero ReceiverConfig.
const (
	// DefaultMaxRecords is the default limit on live records.
	DefaultMaxRecords = 4096
	// DefaultMaxTombstones is the default number of deletions remembered.
	DefaultMaxTombstones = 4096
)

// ReceiverConfig configures a Receiver. Zero or negative fields take the
// defaults.
type ReceiverConfig struct {
	// MaxRecords is the most live (not deleted) records the receiver holds.
	// A new record beyond it is refused: not applied and not acknowledged.
	MaxRecords int
	// MaxTombstones is how many deletions the receiver remembers. A
	// deletion is forgotten once MaxTombstones later deletions have been
	// recorded; until then, a late copy of an older revision of that record
	// (one delayed in the network) cannot bring it back. Past that bound it
	// could: size it for more deletions than happen within the longest time
	// a datagram may spend in the network.
	MaxTombstones int
}

func (c ReceiverConfig) withDefaults() ReceiverConfig {
	if c.MaxRecords <= 0 {
		c.MaxRecords = DefaultMaxRecords
	}
	if c.MaxTombstones <= 0 {
		c.MaxTombstones = DefaultMaxTombstones
	}
	return c
}

// ReceiverStats counts what a Receiver did.
type ReceiverStats struct {
	Datagrams  uint64 // records datagrams accepted
	Malformed  uint64 // datagrams rejected as a whole
	Records    uint64 // records in accepted datagrams
	Changes    uint64 // applied changes: exactly the OnChange calls
	Tombstoned uint64 // deletions of records not held live: remembered, not reported
	Duplicates uint64 // records whose state the receiver already had
	Stale      uint64 // records older than the state the receiver has
	Refused    uint64 // new records refused for the MaxRecords limit
	Evicted    uint64 // tombstones forgotten for the MaxTombstones limit
}

type recvSlot struct {
	id      uint32
	gen     uint16
	rev     uint32
	deleted bool
	used    bool
	payload []byte // owned; its capacity is reused
}

type tombstone struct {
	id  uint32
	gen uint16
	rev uint32
}

// Receiver holds the records replicated by one Sender and acknowledges every
// record it takes in. It is one end of one connection; it is not safe for
// concurrent use.
type Receiver struct {
	cfg      ReceiverConfig
	index    map[uint32]int32 // id -> slot, live records and tombstones
	slots    []recvSlot
	free     freeSlots
	live     int
	tombs    []tombstone // ring of deletions, oldest at tombHead once full
	tombHead int
	onChange func(Record)
	stats    ReceiverStats
}

// NewReceiver returns a Receiver with configuration cfg (zero fields take
// the defaults).
func NewReceiver(cfg ReceiverConfig) *Receiver {
	return &Receiver{cfg: cfg.withDefaults(), index: make(map[uint32]int32)}
}

// OnChange sets the function called once for every applied change: a new
// record, a new revision or generation of a record, or the deletion of a
// live record. Duplicates and stale revisions are not reported, nor are
// deletions of records the receiver never held. A deletion is reported with
// Deleted set and the generation and revision of the deletion (which may be
// newer than the record it removed). r.Payload aliases the
// receiver's storage and is valid only during the call. f must not call
// Handle.
func (r *Receiver) OnChange(f func(rec Record)) { r.onChange = f }

// Reset forgets every record and tombstone and the statistics, keeping
// allocated storage: the receiver of a new connection.
func (r *Receiver) Reset() {
	clear(r.index)
	for i := range r.slots {
		r.slots[i].used = false
	}
	r.free.reset(len(r.slots))
	r.live = 0
	r.tombs, r.tombHead = r.tombs[:0], 0
	r.stats = ReceiverStats{}
}

// outcome of applying one record.
type outcome uint8

const (
	applied    outcome = iota // visible change, reported
	tombstoned                // deletion of a record not held live, remembered
	duplicate
	stale
	refused
)

// Handle decodes records datagram p, applies each record that is newer than
// what the receiver holds, and appends to ack an ack datagram naming every
// record it took in: applied, duplicate or stale alike, so that the sender
// stops resending them. If no record was taken in it appends nothing, so
// the caller sends the ack only when len(ackOut) > len(ack).
//
// A malformed datagram is rejected as a whole: nothing applied, nothing
// acknowledged. A datagram that would take the receiver over MaxRecords live
// records is applied up to the limit: records that update or delete what
// the receiver holds are applied, new ones beyond the limit are refused and
// not acknowledged, and Handle returns an error wrapping ErrTooManyRecords.
func (r *Receiver) Handle(p, ack []byte) (ackOut []byte, err error) {
	rs, err := ParseRecords(p)
	if err != nil {
		r.stats.Malformed++
		return ack, err
	}
	r.stats.Datagrams++
	r.stats.Records += uint64(rs.Len())
	started := false
	nRefused := 0
	for rec, ok := rs.Next(); ok; rec, ok = rs.Next() {
		switch r.apply(rec) {
		case applied:
			r.stats.Changes++
		case tombstoned:
			r.stats.Tombstoned++
		case duplicate:
			r.stats.Duplicates++
		case stale:
			r.stats.Stale++
		case refused:
			r.stats.Refused++
			nRefused++
			continue
		}
		if !started {
			ack = append(ack, TypeAck)
			started = true
		}
		ack = AppendAck(ack, Ack{ID: rec.ID, Generation: rec.Generation, Revision: rec.Revision})
	}
	if nRefused > 0 {
		return ack, fmt.Errorf("%w: refused %d new records at the limit of %d", ErrTooManyRecords, nRefused, r.cfg.MaxRecords)
	}
	return ack, nil
}

func (r *Receiver) apply(rec Record) outcome {
	i, ok := r.index[rec.ID]
	if !ok {
		if rec.Deleted {
			// A deletion of something never seen here (its publication was
			// overtaken or lost): remember it so that a late copy of the
			// publication does not create it.
			i = r.alloc(rec.ID)
			r.slots[i].gen, r.slots[i].rev, r.slots[i].deleted = rec.Generation, rec.Revision, true
			r.remember(rec.ID, rec.Generation, rec.Revision)
			return tombstoned
		}
		if r.live >= r.cfg.MaxRecords {
			return refused
		}
		i = r.alloc(rec.ID)
		r.live++
		r.store(i, rec)
		return applied
	}
	sl := &r.slots[i]
	if !newer(rec.Generation, rec.Revision, sl.gen, sl.rev) {
		if rec.Generation == sl.gen && rec.Revision == sl.rev {
			return duplicate
		}
		return stale
	}
	switch {
	case rec.Deleted && sl.deleted:
		sl.gen, sl.rev = rec.Generation, rec.Revision
		r.remember(rec.ID, rec.Generation, rec.Revision)
		return tombstoned
	case rec.Deleted:
		r.live--
		r.store(i, rec)
		r.remember(rec.ID, rec.Generation, rec.Revision)
		return applied
	case sl.deleted:
		if r.live >= r.cfg.MaxRecords {
			return refused
		}
		r.live++
	}
	r.store(i, rec)
	return applied
}

// store sets slot i to rec and reports the change.
func (r *Receiver) store(i int32, rec Record) {
	sl := &r.slots[i]
	sl.gen, sl.rev, sl.deleted = rec.Generation, rec.Revision, rec.Deleted
	sl.payload = append(sl.payload[:0], rec.Payload...)
	if r.onChange != nil {
		r.onChange(Record{ID: sl.id, Generation: sl.gen, Revision: sl.rev, Deleted: sl.deleted, Payload: sl.payload})
	}
}

func (r *Receiver) alloc(id uint32) int32 {
	var i int32
	r.slots, i = takeSlot(&r.free, r.slots)
	sl := &r.slots[i]
	*sl = recvSlot{id: id, used: true, payload: sl.payload[:0]}
	r.index[id] = i
	return i
}

// remember records a deletion in the tombstone ring, forgetting the oldest
// one when the ring is full. A ring entry whose slot has since changed (the
// id came back, or was deleted again) no longer names a tombstone and is
// dropped without effect.
func (r *Receiver) remember(id uint32, gen uint16, rev uint32) {
	t := tombstone{id: id, gen: gen, rev: rev}
	if len(r.tombs) < r.cfg.MaxTombstones {
		r.tombs = append(r.tombs, t)
		return
	}
	old := r.tombs[r.tombHead]
	r.tombs[r.tombHead] = t
	r.tombHead = (r.tombHead + 1) % len(r.tombs)
	if i, ok := r.index[old.id]; ok {
		sl := &r.slots[i]
		if sl.deleted && sl.gen == old.gen && sl.rev == old.rev {
			delete(r.index, old.id)
			sl.used = false
			r.free.release(i)
			r.stats.Evicted++
		}
	}
}

// Get returns the generation and payload of live record id, and false if
// the receiver holds no live record with that id. The payload aliases the
// receiver's storage: valid until the next Handle or Reset.
func (r *Receiver) Get(id uint32) (gen uint16, payload []byte, ok bool) {
	i, found := r.index[id]
	if !found || r.slots[i].deleted {
		return 0, nil, false
	}
	return r.slots[i].gen, r.slots[i].payload, true
}

// Len returns the number of live records.
func (r *Receiver) Len() int { return r.live }

// Tombstones returns the number of deletions currently remembered.
func (r *Receiver) Tombstones() int { return len(r.index) - r.live }

// All iterates over the live records in no particular order. Payloads alias
// the receiver's storage; the receiver must not be changed during the loop.
func (r *Receiver) All() iter.Seq[Record] {
	return func(yield func(Record) bool) {
		for i := range r.slots {
			sl := &r.slots[i]
			if !sl.used || sl.deleted {
				continue
			}
			if !yield(Record{ID: sl.id, Generation: sl.gen, Revision: sl.rev, Payload: sl.payload}) {
				return
			}
		}
	}
}

// Stats returns the receiver's counters.
func (r *Receiver) Stats() ReceiverStats { return r.stats }
