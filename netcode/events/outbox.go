package events

import "fmt"

// Defaults.
const (
	// DefaultMaxQueued is the default limit on events waiting in an Outbox.
	DefaultMaxQueued = 256
	// DefaultMaxDatagram is the datagram budget AppendNext uses when given
	// maxBytes <= 0.
	DefaultMaxDatagram = 1200
)

// OutboxStats counts what an Outbox did.
type OutboxStats struct {
	Pushed    uint64 // events queued
	Refused   uint64 // Push calls that returned an error
	Datagrams uint64 // datagrams framed
	Events    uint64 // events framed
	Bytes     uint64 // datagram bytes framed
}

type queued struct {
	kind Kind
	tick uint32
	body []byte // owned; its capacity is reused
}

// Outbox numbers and frames the events sent on one connection. It does not
// resend anything: its datagrams go on the reliable ordered channel
// (transport.Events), which retransmits. It is not safe for concurrent use.
type Outbox struct {
	valid Validator
	q     []queued // ring of MaxQueued slots
	head  int      // index of the oldest queued event
	n     int      // events queued
	next  uint32   // sequence number of the next event pushed
	stats OutboxStats
}

// OutboxConfig configures an Outbox.
type OutboxConfig struct {
	// MaxQueued is the most events waiting to be framed (<= 0 means
	// DefaultMaxQueued).
	MaxQueued int
	// Validate checks the body of every event pushed; Push refuses one it
	// rejects. Nil accepts any body up to MaxBody.
	Validate Validator
}

// NewOutbox returns an Outbox configured by cfg.
func NewOutbox(cfg OutboxConfig) *Outbox {
	maxQueued := cfg.MaxQueued
	if maxQueued <= 0 {
		maxQueued = DefaultMaxQueued
	}
	o := &Outbox{valid: cfg.Validate, q: make([]queued, maxQueued), next: 1}
	arena := make([]byte, maxQueued*slotBody)
	for i := range o.q {
		o.q[i].body = arena[i*slotBody : i*slotBody : (i+1)*slotBody]
	}
	return o
}

// slotBody is the body capacity each queue or window slot starts with, from
// one shared allocation: typical bodies (all but long text) fit, so they
// never allocate. A larger body grows its slot's buffer once.
const slotBody = 64

// Push queues a copy of e with the next sequence number (e.Seq is ignored).
// It returns ErrQueueFull when MaxQueued events are already waiting (the
// peer stopped reading: disconnect it), an error wrapping ErrMalformed for
// kind 0, a body longer than MaxBody or one the Validate function refuses,
// and ErrSeqExhausted after 2^32-1 events. A refused event takes no
// sequence number.
func (o *Outbox) Push(e Event) error {
	if err := o.check(e); err != nil {
		o.stats.Refused++
		return err
	}
	slot := &o.q[(o.head+o.n)%len(o.q)]
	slot.kind, slot.tick = e.Kind, e.Tick
	slot.body = append(slot.body[:0], e.Body...)
	o.n++
	o.next++
	o.stats.Pushed++
	return nil
}

func (o *Outbox) check(e Event) error {
	if len(e.Body) > MaxBody {
		return fmt.Errorf("%w: body of %d bytes, at most %d", ErrMalformed, len(e.Body), MaxBody)
	}
	if err := validate(o.valid, e.Kind, e.Body); err != nil {
		return err
	}
	if o.n == len(o.q) {
		return ErrQueueFull
	}
	if o.next == 0 { // wrapped past 2^32-1
		return ErrSeqExhausted
	}
	return nil
}

// AppendNext appends to dst one datagram holding the oldest queued events,
// in order, as many as fit in maxBytes (<= 0 means DefaultMaxDatagram), and
// removes them from the queue. It returns the extended buffer and the number
// of events framed; with nothing queued it returns dst unchanged and 0.
//
// Events keep their order, so one that does not fit ends the datagram. The
// first event always goes, even if alone it exceeds maxBytes: a budget of at
// least MaxEventDatagram is never exceeded. Send the datagram on the reliable
// channel; if the transport refuses it the stream has a gap, and the
// connection must be closed.
func (o *Outbox) AppendNext(dst []byte, maxBytes int) ([]byte, int) {
	if o.n == 0 {
		return dst, 0
	}
	if maxBytes <= 0 {
		maxBytes = DefaultMaxDatagram
	}
	start := len(dst)
	dst = AppendDatagramHeader(dst, o.next-uint32(o.n))
	k := 0
	for k < o.n {
		q := &o.q[(o.head+k)%len(o.q)]
		e := Event{Kind: q.kind, Tick: q.tick, Body: q.body}
		if k > 0 && len(dst)-start+EventSize(e) > maxBytes {
			break
		}
		dst = AppendEvent(dst, e)
		k++
	}
	o.head = (o.head + k) % len(o.q)
	o.n -= k
	o.stats.Datagrams++
	o.stats.Events += uint64(k)
	o.stats.Bytes += uint64(len(dst) - start)
	return dst, k
}

// Len returns the number of events waiting to be framed.
func (o *Outbox) Len() int { return o.n }

// NextSeq returns the sequence number the next pushed event will get.
func (o *Outbox) NextSeq() uint32 { return o.next }

// Stats returns the outbox's counters.
func (o *Outbox) Stats() OutboxStats { return o.stats }

// Reset empties the queue and restarts sequence numbers at 1, keeping
// allocated storage: the outbox of a new connection.
func (o *Outbox) Reset() {
	o.head, o.n, o.next = 0, 0, 1
	o.stats = OutboxStats{}
}
