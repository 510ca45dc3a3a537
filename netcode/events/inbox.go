package events

import "fmt"

// DefaultWindow is the default reorder window of an Inbox, in events.
const DefaultWindow = 1024

// InboxStats counts what an Inbox did.
type InboxStats struct {
	Datagrams  uint64 // datagrams accepted
	Malformed  uint64 // datagrams rejected as malformed
	Overflow   uint64 // datagrams rejected for reaching beyond the window
	Delivered  uint64 // events delivered
	Early      uint64 // events held because an earlier one was missing
	Duplicates uint64 // events dropped as already delivered or already held
	MaxHeld    int    // the most events held at once
}

type held struct {
	ok   bool
	kind Kind
	tick uint32
	body []byte // owned; its capacity is reused
}

// Inbox delivers the events of one connection exactly once and in sequence
// order, however the datagrams that carry them are handed over: the
// transport may hand over datagrams of the reliable ordered channel out of
// order (pion on js/wasm runs each message callback in its own goroutine),
// and a retransmission may arrive twice. Events that arrive before their
// turn wait in a reorder window of a fixed number of events. It is not safe
// for concurrent use: callers serialize their calls to Handle.
type Inbox struct {
	valid Validator
	next  uint32 // sequence number of the next event to deliver
	win   []held // ring indexed by sequence number modulo its length
	held  int
	arena []byte // backing of the slots' starting body buffers
	stats InboxStats
}

// InboxConfig configures an Inbox.
type InboxConfig struct {
	// Window is how many events the reorder window holds (<= 0 means
	// DefaultWindow).
	Window int
	// Validate checks the body of every event received; a datagram holding
	// one it refuses is rejected as a whole. Nil accepts any body up to
	// MaxBody.
	Validate Validator
}

// NewInbox returns an Inbox configured by cfg. Its memory is bounded by
// Window*MaxBody bytes of bodies.
func NewInbox(cfg InboxConfig) *Inbox {
	window := cfg.Window
	if window <= 0 {
		window = DefaultWindow
	}
	return &Inbox{valid: cfg.Validate, next: 1, win: make([]held, window)}
}

// Handle decodes datagram p and calls deliver for each event whose turn has
// come, in sequence order: events of p in order, and events held from
// earlier datagrams once the gap before them is filled. An event already
// delivered or already held is dropped and counted. An event that arrives
// early is copied and held.
//
// The Event passed to deliver, and its Body, are valid only during the call.
// deliver must not call Handle. A nil deliver discards the events.
//
// A malformed datagram, or one holding a body the Validate function refuses,
// is rejected as a whole (error wrapping ErrShort, ErrMalformed or
// ErrWrongType; a refused body's error wraps ErrMalformed and the
// validator's error). So is a datagram holding an event the
// window cannot hold (at or beyond Next()+window): the error wraps
// ErrReorderWindow, and the connection is to be taken as broken.
func (in *Inbox) Handle(p []byte, deliver func(Event)) error {
	d, err := ParseDatagram(p, in.valid)
	if err != nil {
		in.stats.Malformed++
		return err
	}
	last := uint64(d.First()) + uint64(d.Len()) - 1
	if last >= uint64(in.next)+uint64(len(in.win)) {
		in.stats.Overflow++
		return fmt.Errorf("%w: event %d, next expected %d, window %d", ErrReorderWindow, last, in.next, len(in.win))
	}
	in.stats.Datagrams++
	for e, ok := d.Next(); ok; e, ok = d.Next() {
		// Held events have sequence numbers in (next, next+window), one
		// per slot, so the slot of next is always free and an occupied
		// slot holds this very event.
		switch slot := &in.win[e.Seq%uint32(len(in.win))]; {
		case e.Seq < in.next || slot.ok:
			in.stats.Duplicates++
		case e.Seq == in.next:
			in.deliver(e, deliver)
			in.drain(deliver)
		default:
			if in.arena == nil {
				in.allocArena()
			}
			slot.ok, slot.kind, slot.tick = true, e.Kind, e.Tick
			slot.body = append(slot.body[:0], e.Body...)
			in.held++
			in.stats.Early++
			in.stats.MaxHeld = max(in.stats.MaxHeld, in.held)
		}
	}
	return nil
}

// allocArena gives every window slot its starting body buffer, the first
// time an event arrives early (many connections never see one).
func (in *Inbox) allocArena() {
	in.arena = make([]byte, len(in.win)*slotBody)
	for i := range in.win {
		in.win[i].body = in.arena[i*slotBody : i*slotBody : (i+1)*slotBody]
	}
}

func (in *Inbox) deliver(e Event, fn func(Event)) {
	in.next++
	in.stats.Delivered++
	if fn != nil {
		fn(e)
	}
}

// drain delivers held events whose turn has come.
func (in *Inbox) drain(fn func(Event)) {
	for {
		slot := &in.win[in.next%uint32(len(in.win))]
		if !slot.ok {
			return
		}
		slot.ok = false
		in.held--
		in.deliver(Event{Seq: in.next, Kind: slot.kind, Tick: slot.tick, Body: slot.body}, fn)
	}
}

// Next returns the sequence number of the next event to deliver.
func (in *Inbox) Next() uint32 { return in.next }

// Held returns the number of early events waiting for their turn.
func (in *Inbox) Held() int { return in.held }

// Stats returns the inbox's counters.
func (in *Inbox) Stats() InboxStats { return in.stats }

// Reset forgets every held event and restarts at sequence number 1, keeping
// allocated storage: the inbox of a new connection.
func (in *Inbox) Reset() {
	for i := range in.win {
		in.win[i].ok = false
	}
	in.next, in.held = 1, 0
	in.stats = InboxStats{}
}
