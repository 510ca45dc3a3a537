package protocol

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/netcode/varint"
)

// The arena's records (arena.Record) travel as acknowledged replica records
// (netcode/replica), apart from snapshots. A record id is a kind in its top
// 4 bits and an index in the other 28:
//
//	RecordClock            the round clock (one record, generation 0)
//	RecordScore | player   a player's name and score (generation 0: a
//	                       player id is never reused); deleted when the
//	                       player leaves
//	RecordPickup | n       health pack n (n from 0): deleted when taken,
//	                       published again with the next generation when it
//	                       comes back elsewhere
//
// Payloads (varints are unsigned LEB128 in shortest form; a parser rejects
// any other form, any bytes left over, and values out of range):
//
//	clock   round varint (>= 1), start tick varint, end tick varint (> start)
//	score   name length varint (<= arena.MaxNameBytes), name (UTF-8), kills
//	        varint, deaths varint, score varint (all < 2^32)
//	pickup  x uint16 LE, y uint16 LE (whole px, <= WorldSize), kind byte
//	        (arena.PickupHealth)
//
// Clock ticks count World Steps, which the match server numbers alike (its
// tick N is the world after N Steps): the first round starts at tick 0,
// before the first snapshot (tick 1); a round ends, and RoundOver is sent,
// on the snapshot tick End, and End - tick ticks remain at tick.
const (
	RecordKindShift        = 28
	RecordIndexMask        = 1<<RecordKindShift - 1
	RecordClock     uint32 = 1 << RecordKindShift
	RecordScore     uint32 = 2 << RecordKindShift
	RecordPickup    uint32 = 3 << RecordKindShift
)

// RecordKind splits a record id into its kind (RecordClock, RecordScore,
// RecordPickup or another value) and its index.
func RecordKind(id uint32) (kind, index uint32) {
	return id &^ RecordIndexMask, id & RecordIndexMask
}

// ErrRecord is returned (wrapped) for a malformed record payload.
var ErrRecord = errors.New("protocol: malformed record")

// RecordID returns the id record r travels under.
func RecordID(r arena.Record) uint32 {
	switch r.Kind {
	case arena.RecordClock:
		return RecordClock
	case arena.RecordScore:
		return RecordScore | r.Index&RecordIndexMask
	case arena.RecordPickup:
		return RecordPickup | r.Index&RecordIndexMask
	}
	return 0
}

// AppendRecordPayload appends the payload of record r: nothing for a
// deleted one.
func AppendRecordPayload(dst []byte, r arena.Record) []byte {
	if r.Deleted {
		return dst
	}
	switch r.Kind {
	case arena.RecordClock:
		return AppendClock(dst, r.Clock)
	case arena.RecordScore:
		return AppendScore(dst, r.Score)
	case arena.RecordPickup:
		return AppendPickup(dst, r.Pickup)
	}
	return dst
}

// AppendClock appends the payload of a clock record.
func AppendClock(dst []byte, c arena.Clock) []byte {
	dst = binary.AppendUvarint(dst, uint64(c.Round))
	dst = binary.AppendUvarint(dst, uint64(c.Start))
	return binary.AppendUvarint(dst, uint64(c.End))
}

// AppendScore appends the payload of a score record. A name longer than
// arena.MaxNameBytes is cut (at a character boundary).
func AppendScore(dst []byte, s arena.Score) []byte {
	name := s.Name
	if len(name) > arena.MaxNameBytes || !utf8.ValidString(name) {
		name = arena.CutName(name)
	}
	dst = binary.AppendUvarint(dst, uint64(len(name)))
	dst = append(dst, name...)
	dst = binary.AppendUvarint(dst, uint64(s.Kills))
	dst = binary.AppendUvarint(dst, uint64(s.Deaths))
	return binary.AppendUvarint(dst, uint64(s.Score))
}

// AppendPickup appends the payload of a pickup record.
func AppendPickup(dst []byte, p arena.Pickup) []byte {
	dst = binary.LittleEndian.AppendUint16(dst, p.X)
	dst = binary.LittleEndian.AppendUint16(dst, p.Y)
	return append(dst, p.Kind)
}

// payloadReader reads a payload; its first error sticks.
type payloadReader struct {
	p   []byte
	err error
}

func (r *payloadReader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: "+format, append([]any{ErrRecord}, args...)...)
	}
}

func (r *payloadReader) uvarint(limit uint64, what string) uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.p)
	switch {
	case n == 0:
		r.fail("%s cut short", what)
		return 0
	case n < 0:
		r.fail("%s overflows", what)
		return 0
	case n != varint.Len(v):
		r.fail("%s not in shortest form", what)
		return 0
	case v > limit:
		r.fail("%s %d above %d", what, v, limit)
		return 0
	}
	r.p = r.p[n:]
	return v
}

func (r *payloadReader) bytes(n int, what string) []byte {
	if r.err != nil {
		return nil
	}
	if len(r.p) < n {
		r.fail("%s: %d bytes, %d left", what, n, len(r.p))
		return nil
	}
	b := r.p[:n]
	r.p = r.p[n:]
	return b
}

func (r *payloadReader) done() error {
	if r.err == nil && len(r.p) > 0 {
		r.fail("%d bytes left over", len(r.p))
	}
	return r.err
}

// ParseClock decodes a clock record's payload.
func ParseClock(p []byte) (arena.Clock, error) {
	r := payloadReader{p: p}
	c := arena.Clock{
		Round: uint32(r.uvarint(math.MaxUint32, "round")),
		Start: uint32(r.uvarint(math.MaxUint32, "start")),
		End:   uint32(r.uvarint(math.MaxUint32, "end")),
	}
	if err := r.done(); err != nil {
		return arena.Clock{}, err
	}
	if c.Round == 0 || c.End <= c.Start {
		return arena.Clock{}, fmt.Errorf("%w: round %d from tick %d to %d", ErrRecord, c.Round, c.Start, c.End)
	}
	return c, nil
}

// ParseScore decodes a score record's payload.
func ParseScore(p []byte) (arena.Score, error) {
	r := payloadReader{p: p}
	n := r.uvarint(arena.MaxNameBytes, "name length")
	name := r.bytes(int(n), "name")
	s := arena.Score{
		Kills:  uint32(r.uvarint(math.MaxUint32, "kills")),
		Deaths: uint32(r.uvarint(math.MaxUint32, "deaths")),
		Score:  uint32(r.uvarint(math.MaxUint32, "score")),
	}
	if err := r.done(); err != nil {
		return arena.Score{}, err
	}
	if !utf8.Valid(name) {
		return arena.Score{}, fmt.Errorf("%w: name is not UTF-8", ErrRecord)
	}
	s.Name = string(name)
	return s, nil
}

// ParsePickup decodes a pickup record's payload.
func ParsePickup(p []byte) (arena.Pickup, error) {
	if len(p) != 5 {
		return arena.Pickup{}, fmt.Errorf("%w: pickup of %d bytes, want 5", ErrRecord, len(p))
	}
	pk := arena.Pickup{X: binary.LittleEndian.Uint16(p), Y: binary.LittleEndian.Uint16(p[2:]), Kind: p[4]}
	switch {
	case pk.X > WorldSize || pk.Y > WorldSize:
		return arena.Pickup{}, fmt.Errorf("%w: pickup at (%d, %d), outside the world", ErrRecord, pk.X, pk.Y)
	case pk.Kind != arena.PickupHealth:
		return arena.Pickup{}, fmt.Errorf("%w: unknown pickup kind %d", ErrRecord, pk.Kind)
	}
	return pk, nil
}
