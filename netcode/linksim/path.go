package linksim

import (
	"time"

	"github.com/sightline-game/sightline/netcode/transport"
)

// Path is one direction of a simulated match connection, carrying every
// channel of package transport: a [Link] carries the unreliable channels,
// each packet tagged with its channel, and an [Ordered] queue carries the
// reliable one (Events), delayed by the link's latency but never lost,
// duplicated or reordered. Time is passed in by the caller, as for a Link.
// Buffers are reused: a warmed-up Path allocates nothing. A Path is not safe
// for concurrent use.
type Path struct {
	link    *Link
	events  Ordered
	scratch []byte // channel tag + payload for the link

	deliverFn func(ch transport.Channel, p []byte) bool // set during Deliver
	untagFn   func([]byte)
}

// NewPath returns a Path whose link has configuration cfg and randomness
// seeded by seed. It fails, with an error wrapping [ErrConfig], if cfg is
// invalid.
func NewPath(cfg Config, seed uint64) (*Path, error) {
	l, err := New(cfg, seed)
	if err != nil {
		return nil, err
	}
	p := &Path{link: l, scratch: make([]byte, 0, 1+transport.MaxMessageSize)}
	p.untagFn = p.untag
	return p, nil
}

// Link returns the link that carries the unreliable channels, to change its
// configuration or read its counters. Its Latency also delays events sent
// after a change.
func (p *Path) Link() *Link { return p.link }

// Send puts a copy of msg on channel ch at time now and returns how many
// copies of it are on their way. An event is queued behind earlier events,
// due at now plus the link's latency (1 copy). A message of another channel
// goes over the link, which may lose or drop it (0 copies) or duplicate it
// (2 copies). The caller may reuse msg as soon as Send returns.
func (p *Path) Send(now time.Duration, ch transport.Channel, msg []byte) int {
	if ch.Reliable() {
		p.events.Push(now+p.link.Config().Latency, msg)
		return 1
	}
	p.scratch = append(append(p.scratch[:0], byte(ch)), msg...)
	before := p.link.Stats()
	p.link.Send(now, p.scratch)
	after := p.link.Stats()
	if after.Lost != before.Lost || after.Dropped != before.Dropped {
		return 0
	}
	return 1 + int(after.Duplicated-before.Duplicated)
}

// Events returns how many events are queued.
func (p *Path) Events() int { return p.events.Len() }

// Pending reports whether any message is on its way.
func (p *Path) Pending() bool { return p.link.InFlight() > 0 || p.events.Len() > 0 }

// NextArrival returns the time at which the next message is due, and false
// if nothing is on its way.
func (p *Path) NextArrival() (time.Duration, bool) {
	la, lok := p.link.NextArrival()
	ea, eok := p.events.Next()
	switch {
	case lok && eok:
		return min(la, ea), true
	case lok:
		return la, true
	case eok:
		return ea, true
	}
	return 0, false
}

// Deliver calls fn for every message due at or before now, in arrival order
// (ties: link packets before events), with its channel; p is valid only
// during the call. fn returns whether it took the message. A refused event
// stays at the head of the queue, and no later event is delivered by this
// call, so that events keep their order; it is offered again by the next
// Deliver. The answer for other channels is ignored: their packets are gone
// once delivered, as on a real link. fn must not call Deliver or Send on
// this Path.
func (p *Path) Deliver(now time.Duration, fn func(ch transport.Channel, msg []byte) bool) {
	p.deliverFn = fn
	eventsBlocked := false
	for {
		la, lok := p.link.NextArrival()
		lok = lok && la <= now
		ea, eok := p.events.Next()
		eok = eok && ea <= now && !eventsBlocked
		if !lok && !eok {
			return
		}
		if eok && (!lok || ea < la) {
			if fn(transport.Events, p.events.Front()) {
				p.events.Pop()
			} else {
				eventsBlocked = true
			}
			continue
		}
		// Every packet this delivers is due exactly at la, the earliest.
		p.link.Deliver(la, p.untagFn)
	}
}

// untag hands one link packet to the fn of the Deliver in progress.
func (p *Path) untag(pkt []byte) {
	if len(pkt) > 0 {
		p.deliverFn(transport.Channel(pkt[0]), pkt[1:])
	}
}

// Batch collects copies of received messages, so that they can be handed to
// the receiver's callback after the lock guarding the sender's side is
// released (the callback may then send). Buffers are reused: a warmed-up
// Batch allocates nothing. The zero Batch is ready.
type Batch struct {
	msgs []batchMessage
	n    int
}

type batchMessage struct {
	ch  transport.Channel
	buf []byte
}

// Reset empties the batch, keeping its buffers.
func (b *Batch) Reset() { b.n = 0 }

// Add appends a copy of p, received on channel ch. It always takes the
// message and reports true, so that it can serve as [Path.Deliver]'s fn.
func (b *Batch) Add(ch transport.Channel, p []byte) bool {
	if b.n == len(b.msgs) {
		b.msgs = append(b.msgs, batchMessage{})
	}
	m := &b.msgs[b.n]
	b.n++
	m.ch = ch
	m.buf = append(m.buf[:0], p...)
	return true
}

// Len returns the number of messages in the batch.
func (b *Batch) Len() int { return b.n }

// At returns message i; p is valid until the next Reset.
func (b *Batch) At(i int) (ch transport.Channel, p []byte) {
	m := &b.msgs[i]
	return m.ch, m.buf
}
