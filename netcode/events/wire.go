package events

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/sightline-game/sightline/netcode/varint"
)

// TypeEvents is the first byte of every events datagram.
const TypeEvents byte = 0x45 // 'E'

// Limits of the encoding.
const (
	// MaxBody is the largest event body, in bytes.
	MaxBody = 1024
	// MaxEventHeader is the largest encoded event header: kind (1 byte),
	// tick (5) and body length (2).
	MaxEventHeader = 1 + 5 + 2
	// MaxDatagramHeader is the largest datagram header: type byte and first
	// sequence number (5).
	MaxDatagramHeader = 1 + 5
	// MaxEventDatagram is the size of a datagram holding one event with a
	// MaxBody-byte body. An Outbox given a budget at least this large never
	// exceeds it.
	MaxEventDatagram = MaxDatagramHeader + MaxEventHeader + MaxBody
)

// EventSize returns the number of bytes AppendEvent appends for e.
func EventSize(e Event) int {
	return 1 + varint.Len(uint64(e.Tick)) + varint.Len(uint64(len(e.Body))) + len(e.Body)
}

// AppendDatagramHeader appends the header of an events datagram whose first
// event has sequence number firstSeq (at least 1). The events follow, each
// appended with AppendEvent; their sequence numbers are firstSeq, firstSeq+1
// and so on.
func AppendDatagramHeader(dst []byte, firstSeq uint32) []byte {
	dst = append(dst, TypeEvents)
	return binary.AppendUvarint(dst, uint64(firstSeq))
}

// AppendEvent appends one event (its kind, tick and body; not its Seq,
// which follows from its place in the datagram). A body longer than MaxBody
// is a programming error and panics.
func AppendEvent(dst []byte, e Event) []byte {
	if len(e.Body) > MaxBody {
		panic(fmt.Sprintf("events: body of %d bytes, at most %d", len(e.Body), MaxBody))
	}
	dst = append(dst, byte(e.Kind))
	dst = binary.AppendUvarint(dst, uint64(e.Tick))
	dst = binary.AppendUvarint(dst, uint64(len(e.Body)))
	return append(dst, e.Body...)
}

// uvarint reads one shortest-form number of at most max from the start of
// p, with this package's errors.
func uvarint(p []byte, max uint64) (uint64, int, error) {
	v, n, err := varint.Read(p, max)
	switch {
	case errors.Is(err, varint.ErrShort):
		return 0, 0, fmt.Errorf("%w: %w", ErrShort, err)
	case err != nil:
		return 0, 0, fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	return v, n, nil
}

// readEvent decodes one event from the start of p, body aliasing p, and
// with check set also checks its body with v.
func readEvent(p []byte, v Validator, check bool) (Event, int, error) {
	if len(p) == 0 {
		return Event{}, 0, fmt.Errorf("%w: cut before an event", ErrShort)
	}
	e := Event{Kind: Kind(p[0])}
	if e.Kind == 0 {
		return Event{}, 0, fmt.Errorf("%w: event kind 0", ErrMalformed)
	}
	n := 1
	tick, m, err := uvarint(p[n:], math.MaxUint32)
	if err != nil {
		return Event{}, 0, err
	}
	n += m
	size, m, err := uvarint(p[n:], MaxBody)
	if err != nil {
		return Event{}, 0, err
	}
	n += m
	if len(p)-n < int(size) {
		return Event{}, 0, fmt.Errorf("%w: body of %d bytes, %d left", ErrShort, size, len(p)-n)
	}
	e.Tick = uint32(tick)
	e.Body = p[n : n+int(size) : n+int(size)]
	if check {
		if err := validate(v, e.Kind, e.Body); err != nil {
			return Event{}, 0, err
		}
	}
	return e, n + int(size), nil
}

// Datagram is a validated events datagram. Read its events in order with
// Next; their bodies alias the datagram.
type Datagram struct {
	rest []byte
	seq  uint32 // sequence number of the next event
	n    int
}

// ParseDatagram checks a whole events datagram (type byte, first sequence
// number, at least one event, every field in range and in shortest form,
// every body accepted by v, nothing left over) and returns a cursor over its
// events. A nil v accepts any body up to MaxBody. It never allocates, whatever
// lengths the datagram claims, if v does not.
func ParseDatagram(p []byte, v Validator) (Datagram, error) {
	if len(p) == 0 {
		return Datagram{}, fmt.Errorf("%w: empty datagram", ErrShort)
	}
	if p[0] != TypeEvents {
		return Datagram{}, fmt.Errorf("%w: type %#x, want %#x", ErrWrongType, p[0], TypeEvents)
	}
	first, m, err := uvarint(p[1:], math.MaxUint32)
	if err != nil {
		return Datagram{}, err
	}
	if first == 0 {
		return Datagram{}, fmt.Errorf("%w: sequence number 0", ErrMalformed)
	}
	body := p[1+m:]
	if len(body) == 0 {
		return Datagram{}, fmt.Errorf("%w: no events", ErrMalformed)
	}
	n := 0
	for rest := body; len(rest) > 0; n++ {
		_, k, err := readEvent(rest, v, true)
		if err != nil {
			return Datagram{}, err
		}
		rest = rest[k:]
	}
	if first+uint64(n)-1 > math.MaxUint32 {
		return Datagram{}, fmt.Errorf("%w: %d events from sequence %d overflow", ErrMalformed, n, first)
	}
	return Datagram{rest: body, seq: uint32(first), n: n}, nil
}

// Len returns the number of events not yet read.
func (d *Datagram) Len() int { return d.n }

// First returns the sequence number of the next event Next returns.
func (d *Datagram) First() uint32 { return d.seq }

// Next returns the next event, with its Seq set, and false when none is left.
func (d *Datagram) Next() (Event, bool) {
	if d.n == 0 {
		return Event{}, false
	}
	e, k, _ := readEvent(d.rest, nil, false) // validated by ParseDatagram
	e.Seq = d.seq
	d.rest = d.rest[k:]
	d.n--
	d.seq++
	return e, true
}
