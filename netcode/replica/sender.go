package replica

import (
	"bytes"
	"math"
	"time"
)

// Defaults for a zero SenderConfig.
const (
	// DefaultResendAfter is how long a record sent for the first time waits
	// for its ack before it is due again, while no RTT has been measured.
	DefaultResendAfter = 200 * time.Millisecond
	// DefaultMaxResendAfter caps the resend timeout as it doubles with each
	// unacknowledged send of one revision.
	DefaultMaxResendAfter = time.Second
	// DefaultGiveUpAfter is how long one revision may go unacknowledged
	// after its first send before the sender gives up on it.
	DefaultGiveUpAfter = 10 * time.Second
	// DefaultMaxDatagram is the datagram budget AppendDue uses when it is
	// given maxBytes <= 0: under the usual path MTU once the transport has
	// added its own headers.
	DefaultMaxDatagram = 1200
)

// SenderConfig configures a Sender. Zero fields take the defaults.
type SenderConfig struct {
	// ResendAfter is the first resend timeout of a revision while no RTT is
	// known; once SetRTT gives one, it is twice the RTT, kept within
	// [ResendAfter/4, 4*ResendAfter]. Each further unacknowledged send of
	// the same revision waits twice as long as the one before, up to
	// MaxResendAfter, so a receiver that stalls for a while is not flooded
	// and a slow one is not given up on sooner on a fast link.
	ResendAfter time.Duration
	// MaxResendAfter caps the doubled resend timeout (never below the first).
	MaxResendAfter time.Duration
	// GiveUpAfter is how long one revision may go unacknowledged after its
	// first send before the sender gives up on it and reports Failing. It is
	// checked when the revision is next due, so the sender notices within
	// MaxResendAfter of it.
	GiveUpAfter time.Duration
}

func (c SenderConfig) withDefaults() SenderConfig {
	if c.ResendAfter <= 0 {
		c.ResendAfter = DefaultResendAfter
	}
	if c.MaxResendAfter <= 0 {
		c.MaxResendAfter = DefaultMaxResendAfter
	}
	if c.GiveUpAfter <= 0 {
		c.GiveUpAfter = DefaultGiveUpAfter
	}
	return c
}

// SenderStats counts what a Sender did.
type SenderStats struct {
	Publishes uint64 // Publish and Delete calls that made a new revision
	Unchanged uint64 // Publish and Delete calls that changed nothing
	Datagrams uint64 // datagrams AppendDue produced
	Sends     uint64 // records put in datagrams, resends included
	Resends   uint64 // of Sends, repeats of a revision already sent
	Acks      uint64 // acks that cleared the newest revision of a record
	StaleAcks uint64 // acks for an older revision, an unknown or already cleared record
	BadAcks   uint64 // ack datagrams HandleAck rejected
	GivenUp   uint64 // revisions abandoned, unacknowledged GiveUpAfter after their first send
}

// RecordState is what a Sender holds about one id, for tests and tools.
type RecordState struct {
	Generation uint16
	Revision   uint32
	Deleted    bool
	Pending    bool // not acknowledged yet and still being sent
	GivenUp    bool // abandoned, unacknowledged GiveUpAfter after its first send
	Attempts   int  // sends of the current revision so far
}

// record states in a Sender.
const (
	statePending uint8 = iota // waiting to be sent or for its ack
	stateAcked                // the receiver has the current revision
	stateGivenUp              // unacknowledged GiveUpAfter after its first send
)

type sendSlot struct {
	id       uint32
	gen      uint16
	rev      uint32
	deleted  bool
	state    uint8
	sent     bool // the current revision went out at least once
	attempts int
	first    time.Duration // when the current revision first went out
	due      time.Duration // when a sent revision may go out again
	pend     int32         // index in Sender.pending, -1 if not there
	payload  []byte        // owned; its capacity is reused
}

// Sender replicates a set of records to one receiver. It resends each record
// until the receiver acknowledges its newest revision, each time waiting
// twice as long as the time before, and gives up on a revision still
// unacknowledged GiveUpAfter after its first send. Records are independent: each is resent on
// its own timer, and a record that is lost or waiting never holds up another.
//
// A Sender is one end of one connection (make a new one, or Reset it, for a
// new connection). It is not safe for concurrent use.
type Sender struct {
	cfg     SenderConfig
	index   map[uint32]int32 // id -> slot
	slots   []sendSlot
	free    freeSlots // unused slots, buffers kept
	pending []int32   // slots in state pending, in no particular order
	rev     uint32    // last revision handed out
	rtt     time.Duration
	failing bool
	stats   SenderStats
}

// NewSender returns a Sender with configuration cfg (zero fields take the
// defaults).
func NewSender(cfg SenderConfig) *Sender {
	return &Sender{cfg: cfg.withDefaults(), index: make(map[uint32]int32)}
}

// Reset forgets every record, the revision counter, the RTT, the statistics
// and the failing state, keeping allocated storage: the sender of a new
// connection.
func (s *Sender) Reset() {
	clear(s.index)
	for i := range s.slots {
		s.slots[i].pend = -1
	}
	s.free.reset(len(s.slots))
	s.pending = s.pending[:0]
	s.rev, s.rtt, s.failing = 0, 0, false
	s.stats = SenderStats{}
}

// Publish sets the content of record id, generation gen, to a copy of
// payload (at most MaxPayload bytes), with a new revision that replaces any
// older one not yet acknowledged: only the newest revision is ever sent.
// Publishing the content the record already has (same generation, same
// bytes, not deleted) changes nothing. A generation older than the one the
// sender holds for id is refused with ErrOldGeneration.
func (s *Sender) Publish(id uint32, gen uint16, payload []byte) error {
	if len(payload) > MaxPayload {
		return ErrPayloadTooLarge
	}
	return s.set(id, gen, payload, false)
}

// Delete replaces record id, generation gen, with a deletion, sent like any
// revision. Once the receiver acknowledges it the sender forgets the id
// entirely. Deleting an id the sender does not hold (never published, or
// already deleted and acknowledged) changes nothing.
func (s *Sender) Delete(id uint32, gen uint16) error {
	return s.set(id, gen, nil, true)
}

func (s *Sender) set(id uint32, gen uint16, payload []byte, deleted bool) error {
	i, ok := s.index[id]
	if ok {
		sl := &s.slots[i]
		if gen != sl.gen && !newerGen(gen, sl.gen) {
			return ErrOldGeneration
		}
		if gen == sl.gen && deleted == sl.deleted && (deleted || bytes.Equal(payload, sl.payload)) {
			s.stats.Unchanged++
			return nil
		}
	} else if deleted {
		s.stats.Unchanged++
		return nil
	}
	if s.rev == math.MaxUint32 {
		return ErrRevisionsExhausted
	}
	if !ok {
		i = s.alloc(id)
	}
	s.rev++
	s.stats.Publishes++
	sl := &s.slots[i]
	sl.gen, sl.rev, sl.deleted = gen, s.rev, deleted
	sl.payload = append(sl.payload[:0], payload...)
	sl.state, sl.sent, sl.attempts = statePending, false, 0
	if sl.pend < 0 {
		sl.pend = int32(len(s.pending))
		s.pending = append(s.pending, i)
	}
	return nil
}

func (s *Sender) alloc(id uint32) int32 {
	var i int32
	s.slots, i = takeSlot(&s.free, s.slots)
	sl := &s.slots[i]
	*sl = sendSlot{id: id, pend: -1, payload: sl.payload[:0]}
	s.index[id] = i
	return i
}

// unpend removes slot i from the pending list.
func (s *Sender) unpend(i int32) {
	sl := &s.slots[i]
	p := sl.pend
	last := s.pending[len(s.pending)-1]
	s.pending[p] = last
	s.slots[last].pend = p
	s.pending = s.pending[:len(s.pending)-1]
	sl.pend = -1
}

// SetRTT sets the measured round-trip time, which scales the resend timeout
// from the next send on: twice the RTT, kept within [ResendAfter/4,
// 4*ResendAfter]. An rtt <= 0 goes back to ResendAfter.
func (s *Sender) SetRTT(rtt time.Duration) { s.rtt = rtt }

// ResendTimeout returns how long a revision sent now for the first time
// waits for its ack; each resend of it waits twice as long as the one
// before, up to MaxResendAfter.
func (s *Sender) ResendTimeout() time.Duration {
	base := s.cfg.ResendAfter
	if s.rtt <= 0 {
		return base
	}
	return min(max(2*s.rtt, base/4), 4*base)
}

// backoff returns how long a revision's send number attempts (from 1) waits
// for its ack: first doubled attempts-1 times, at most MaxResendAfter (or
// first, if that is longer).
func (s *Sender) backoff(first time.Duration, attempts int) time.Duration {
	limit := max(s.cfg.MaxResendAfter, first)
	wait := first
	for i := 1; i < attempts && wait < limit; i++ {
		wait *= 2
	}
	return min(wait, limit)
}

// AppendDue appends to dst one records datagram holding records that are due
// at time now: those whose current revision was never sent, and those whose
// resend timer has run out. It returns the extended buffer and the number of
// records in the datagram; with none due (or none that fits) it returns dst
// unchanged and 0. Call it again until it returns 0 to send everything due.
//
// The datagram (from len(dst) on) is at most maxBytes long (<= 0 means
// DefaultMaxDatagram). A due record that does not fit in what is left waits
// for the next call; smaller records behind it still go. A budget below
// MaxRecordDatagram may leave a large record waiting for good.
//
// Each record sent restarts its resend timer, doubled for each send of the
// revision before it. A due record whose current revision first went out
// GiveUpAfter ago or more is given up instead: it is no longer sent and the
// sender reports Failing.
func (s *Sender) AppendDue(dst []byte, now time.Duration, maxBytes int) ([]byte, int) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxDatagram
	}
	start := len(dst)
	timeout := s.ResendTimeout()
	n := 0
	for k := 0; k < len(s.pending); {
		i := s.pending[k]
		sl := &s.slots[i]
		if sl.sent && now < sl.due {
			k++
			continue
		}
		if sl.sent && now-sl.first >= s.cfg.GiveUpAfter {
			s.unpend(i) // moves another slot to k: look at k again
			sl.state = stateGivenUp
			s.stats.GivenUp++
			s.failing = true
			continue
		}
		rec := Record{ID: sl.id, Generation: sl.gen, Revision: sl.rev, Deleted: sl.deleted, Payload: sl.payload}
		size := RecordSize(rec)
		if n == 0 {
			size++ // the type byte
		}
		if len(dst)-start+size > maxBytes {
			k++
			continue
		}
		if n == 0 {
			dst = append(dst, TypeRecords)
		}
		dst = AppendRecord(dst, rec)
		n++
		s.stats.Sends++
		if sl.sent {
			s.stats.Resends++
		}
		if !sl.sent {
			sl.first = now
		}
		sl.sent = true
		sl.attempts++
		sl.due = now + s.backoff(timeout, sl.attempts)
		k++
	}
	if n > 0 {
		s.stats.Datagrams++
	}
	return dst, n
}

// HandleAck takes an ack datagram from the receiver. An ack naming the
// newest revision of a record clears it: it is not sent again, and a
// deletion is then forgotten. An ack for an older revision (or for a record
// already cleared or unknown) is counted and changes nothing: the newer
// revision keeps its timer. A malformed datagram is rejected as a whole.
func (s *Sender) HandleAck(p []byte) error {
	as, err := ParseAcks(p)
	if err != nil {
		s.stats.BadAcks++
		return err
	}
	for a, ok := as.Next(); ok; a, ok = as.Next() {
		i, found := s.index[a.ID]
		if !found {
			s.stats.StaleAcks++
			continue
		}
		sl := &s.slots[i]
		if sl.gen != a.Generation || sl.rev != a.Revision || !sl.sent || sl.state == stateAcked {
			s.stats.StaleAcks++
			continue
		}
		s.stats.Acks++
		if sl.pend >= 0 {
			s.unpend(i)
		}
		if sl.deleted {
			delete(s.index, a.ID)
			sl.state = stateAcked
			s.free.release(i)
			continue
		}
		sl.state = stateAcked
	}
	return nil
}

// Failing reports whether the sender has given up on a record: the receiver
// did not acknowledge a revision of it within GiveUpAfter of its first send,
// resent all the while, so the connection is taken to be failing and its
// owner should disconnect. It stays true until Reset.
func (s *Sender) Failing() bool { return s.failing }

// Pending returns how many records wait to be sent or acknowledged.
func (s *Sender) Pending() int { return len(s.pending) }

// Len returns how many ids the sender holds: live records, and deletions not
// yet acknowledged.
func (s *Sender) Len() int { return len(s.index) }

// Record returns what the sender holds for id, and false if nothing.
func (s *Sender) Record(id uint32) (RecordState, bool) {
	i, ok := s.index[id]
	if !ok {
		return RecordState{}, false
	}
	sl := &s.slots[i]
	return RecordState{
		Generation: sl.gen,
		Revision:   sl.rev,
		Deleted:    sl.deleted,
		Pending:    sl.state == statePending,
		GivenUp:    sl.state == stateGivenUp,
		Attempts:   sl.attempts,
	}, true
}

// Attempts returns how many times the current revision of id has been sent
// (0 for an unknown id).
func (s *Sender) Attempts(id uint32) int {
	st, _ := s.Record(id)
	return st.Attempts
}

// Stats returns the sender's counters.
func (s *Sender) Stats() SenderStats { return s.stats }
