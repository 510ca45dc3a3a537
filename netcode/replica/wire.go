package replica

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/sightline-game/sightline/netcode/varint"
)

// MaxPayload is the largest record payload, in bytes. A record this large,
// with the largest possible record header, fits in one datagram of
// MaxRecordDatagram bytes, well under a 1200-byte datagram budget.
const MaxPayload = 1067

// Datagram type bytes. Every records datagram starts with TypeRecords and
// every ack datagram with TypeAck, so that a datagram of the wrong kind or a
// stray one is rejected at its first byte.
const (
	TypeRecords byte = 0x52 // 'R'
	TypeAck     byte = 0x41 // 'A'
)

// Sizes of the encoding.
const (
	// MaxRecordHeader is the largest encoded record header: id (5 bytes),
	// generation (3), revision (5) and payload length (2).
	MaxRecordHeader = 5 + 3 + 5 + 2
	// MaxRecordDatagram is the size of a records datagram holding one
	// record with a MaxPayload-byte payload and the largest header. A budget
	// of at least this many bytes lets every record go out.
	MaxRecordDatagram = 1 + MaxRecordHeader + MaxPayload
	// MaxAckSize is the largest encoded ack entry.
	MaxAckSize = 5 + 3 + 5
)

// Record is one replicated record: the newest state of an id as its sender
// published it.
type Record struct {
	ID uint32
	// Generation tells apart the successive things that used the same id.
	// Generations compare in serial-number arithmetic (RFC 1982), so they
	// may wrap: g is newer than h when int16(g-h) > 0.
	Generation uint16
	// Revision orders the states of one id: a higher revision is newer.
	// A Sender hands out revisions from one counter for all its ids.
	Revision uint32
	// Deleted marks a deletion (a tombstone); Payload is then empty.
	Deleted bool
	// Payload is the record's content, at most MaxPayload bytes. Records
	// returned by this package alias a datagram or the receiver's storage:
	// copy the bytes to keep them.
	Payload []byte
}

// Ack names one record state a Receiver took in (applied, or found already
// applied or outdated): the Sender stops resending it.
type Ack struct {
	ID         uint32
	Generation uint16
	Revision   uint32
}

// newerGen reports whether generation a is newer than b in serial-number
// arithmetic.
func newerGen(a, b uint16) bool { return int16(a-b) > 0 }

// newer reports whether state (ga, ra) replaces state (gb, rb): a newer
// generation wins whatever its revision, within one generation the higher
// revision wins.
func newer(ga uint16, ra uint32, gb uint16, rb uint32) bool {
	if ga != gb {
		return newerGen(ga, gb)
	}
	return ra > rb
}

// RecordSize returns the number of bytes AppendRecord appends for r.
func RecordSize(r Record) int {
	n := varint.Len(uint64(r.ID)) + varint.Len(uint64(r.Generation)) + varint.Len(uint64(r.Revision))
	if r.Deleted {
		return n + 1
	}
	return n + varint.Len(uint64(len(r.Payload))+1) + len(r.Payload)
}

// AppendRecord appends the encoding of one record to dst. A records
// datagram is TypeRecords followed by one or more records:
//
//	dst = append(dst, replica.TypeRecords)
//	dst = replica.AppendRecord(dst, r)
//
// Each record is four unsigned LEB128 varints (shortest form) and the
// payload: id, generation, revision, then 0 for a deletion or the payload
// length plus one, followed by the payload bytes. A payload longer than
// MaxPayload is a programming error and panics.
func AppendRecord(dst []byte, r Record) []byte {
	dst = binary.AppendUvarint(dst, uint64(r.ID))
	dst = binary.AppendUvarint(dst, uint64(r.Generation))
	dst = binary.AppendUvarint(dst, uint64(r.Revision))
	if r.Deleted {
		return append(dst, 0)
	}
	if len(r.Payload) > MaxPayload {
		panic(fmt.Sprintf("replica: payload of %d bytes, at most %d", len(r.Payload), MaxPayload))
	}
	dst = binary.AppendUvarint(dst, uint64(len(r.Payload))+1)
	return append(dst, r.Payload...)
}

// AppendAck appends the encoding of one ack to dst. An ack datagram is
// TypeAck followed by one or more acks, each three unsigned LEB128 varints
// (shortest form): id, generation, revision.
func AppendAck(dst []byte, a Ack) []byte {
	dst = binary.AppendUvarint(dst, uint64(a.ID))
	dst = binary.AppendUvarint(dst, uint64(a.Generation))
	return binary.AppendUvarint(dst, uint64(a.Revision))
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

// readAck decodes one ack from the start of p.
func readAck(p []byte) (Ack, int, error) {
	id, n1, err := uvarint(p, math.MaxUint32)
	if err != nil {
		return Ack{}, 0, err
	}
	gen, n2, err := uvarint(p[n1:], math.MaxUint16)
	if err != nil {
		return Ack{}, 0, err
	}
	rev, n3, err := uvarint(p[n1+n2:], math.MaxUint32)
	if err != nil {
		return Ack{}, 0, err
	}
	return Ack{ID: uint32(id), Generation: uint16(gen), Revision: uint32(rev)}, n1 + n2 + n3, nil
}

// readRecord decodes one record from the start of p. The payload aliases p.
func readRecord(p []byte) (Record, int, error) {
	a, n, err := readAck(p)
	if err != nil {
		return Record{}, 0, err
	}
	l, m, err := uvarint(p[n:], MaxPayload+1)
	if err != nil {
		return Record{}, 0, err
	}
	n += m
	r := Record{ID: a.ID, Generation: a.Generation, Revision: a.Revision}
	if l == 0 {
		r.Deleted = true
		return r, n, nil
	}
	size := int(l - 1)
	if len(p)-n < size {
		return Record{}, 0, fmt.Errorf("%w: payload of %d bytes, %d left", ErrShort, size, len(p)-n)
	}
	r.Payload = p[n : n+size : n+size]
	return r, n + size, nil
}

// Records is a validated records datagram. Read its records in order with
// Next; the payloads alias the datagram.
type Records struct {
	rest []byte
	n    int
}

// ParseRecords checks a whole records datagram (type byte, at least one
// record, every field in range and in shortest form, nothing left over) and
// returns a cursor over its records. It never allocates, whatever lengths
// the datagram claims.
func ParseRecords(p []byte) (Records, error) {
	if len(p) == 0 {
		return Records{}, fmt.Errorf("%w: empty datagram", ErrShort)
	}
	if p[0] != TypeRecords {
		return Records{}, fmt.Errorf("%w: type %#x, want records %#x", ErrWrongType, p[0], TypeRecords)
	}
	body := p[1:]
	if len(body) == 0 {
		return Records{}, fmt.Errorf("%w: no records", ErrMalformed)
	}
	n := 0
	for rest := body; len(rest) > 0; n++ {
		_, m, err := readRecord(rest)
		if err != nil {
			return Records{}, err
		}
		rest = rest[m:]
	}
	return Records{rest: body, n: n}, nil
}

// Len returns the number of records not yet read.
func (rs *Records) Len() int { return rs.n }

// Next returns the next record, and false when none is left.
func (rs *Records) Next() (Record, bool) {
	if rs.n == 0 {
		return Record{}, false
	}
	r, m, _ := readRecord(rs.rest) // validated by ParseRecords
	rs.rest = rs.rest[m:]
	rs.n--
	return r, true
}

// Acks is a validated ack datagram. Read its acks in order with Next.
type Acks struct {
	rest []byte
	n    int
}

// ParseAcks checks a whole ack datagram (type byte, at least one ack, every
// field in range and in shortest form) and returns a cursor over its acks.
func ParseAcks(p []byte) (Acks, error) {
	if len(p) == 0 {
		return Acks{}, fmt.Errorf("%w: empty datagram", ErrShort)
	}
	if p[0] != TypeAck {
		return Acks{}, fmt.Errorf("%w: type %#x, want ack %#x", ErrWrongType, p[0], TypeAck)
	}
	body := p[1:]
	if len(body) == 0 {
		return Acks{}, fmt.Errorf("%w: no acks", ErrMalformed)
	}
	n := 0
	for rest := body; len(rest) > 0; n++ {
		_, m, err := readAck(rest)
		if err != nil {
			return Acks{}, err
		}
		rest = rest[m:]
	}
	return Acks{rest: body, n: n}, nil
}

// Len returns the number of acks not yet read.
func (as *Acks) Len() int { return as.n }

// Next returns the next ack, and false when none is left.
func (as *Acks) Next() (Ack, bool) {
	if as.n == 0 {
		return Ack{}, false
	}
	a, m, _ := readAck(as.rest) // validated by ParseAcks
	as.rest = as.rest[m:]
	as.n--
	return a, true
}
