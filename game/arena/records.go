package arena

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/sightline-game/sightline/netcode/varint"
)

// Records are the state a client must hold exactly, sent by the server as
// acknowledged replica records (netcode/replica), apart from snapshots.
//
// A record id is a kind in its top 4 bits and an index in the other 28:
//
//	RecordClock            the match clock (one record, generation 0)
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
//	score   name length varint (<= MaxNameBytes), name (UTF-8), kills
//	        varint, deaths varint, score varint (all < 2^32)
//	pickup  x uint16 LE, y uint16 LE (whole px, <= WorldSize), kind byte
//	        (PickupHealth)
//
// Clock ticks count World Steps, which the match server numbers alike (its
// tick N is the world after N Steps): the round ends, and RoundOver is
// sent, on the snapshot tick End, and End - tick ticks remain at tick.
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

// Pickup kinds.
const (
	PickupHealth uint8 = iota // heals PickupHeal
)

// ErrRecord is returned (wrapped) for a malformed record payload.
var ErrRecord = errors.New("arena: malformed record")

// Clock is the payload of the clock record: the current round and the ticks
// it started and ends on.
type Clock struct {
	Round      uint32
	Start, End uint32
}

// Remaining returns the ticks left in the round at tick (0 once over).
func (c Clock) Remaining(tick uint32) uint32 {
	if tick >= c.End {
		return 0
	}
	return c.End - tick
}

// Score is the payload of a player's score record.
type Score struct {
	Name                 string
	Kills, Deaths, Score uint32
}

// Pickup is the payload of a health pack's record: where it lies, in whole px.
type Pickup struct {
	X, Y uint16
	Kind uint8
}

// AppendClock appends the payload of a clock record.
func AppendClock(dst []byte, c Clock) []byte {
	dst = binary.AppendUvarint(dst, uint64(c.Round))
	dst = binary.AppendUvarint(dst, uint64(c.Start))
	return binary.AppendUvarint(dst, uint64(c.End))
}

// AppendScore appends the payload of a score record. A name longer than
// MaxNameBytes is cut (at a character boundary).
func AppendScore(dst []byte, s Score) []byte {
	name := cutName(s.Name)
	dst = binary.AppendUvarint(dst, uint64(len(name)))
	dst = append(dst, name...)
	dst = binary.AppendUvarint(dst, uint64(s.Kills))
	dst = binary.AppendUvarint(dst, uint64(s.Deaths))
	return binary.AppendUvarint(dst, uint64(s.Score))
}

// AppendPickup appends the payload of a pickup record.
func AppendPickup(dst []byte, p Pickup) []byte {
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
func ParseClock(p []byte) (Clock, error) {
	r := payloadReader{p: p}
	c := Clock{
		Round: uint32(r.uvarint(math.MaxUint32, "round")),
		Start: uint32(r.uvarint(math.MaxUint32, "start")),
		End:   uint32(r.uvarint(math.MaxUint32, "end")),
	}
	if err := r.done(); err != nil {
		return Clock{}, err
	}
	if c.Round == 0 || c.End <= c.Start {
		return Clock{}, fmt.Errorf("%w: round %d from tick %d to %d", ErrRecord, c.Round, c.Start, c.End)
	}
	return c, nil
}

// ParseScore decodes a score record's payload.
func ParseScore(p []byte) (Score, error) {
	r := payloadReader{p: p}
	n := r.uvarint(MaxNameBytes, "name length")
	name := r.bytes(int(n), "name")
	s := Score{
		Kills:  uint32(r.uvarint(math.MaxUint32, "kills")),
		Deaths: uint32(r.uvarint(math.MaxUint32, "deaths")),
		Score:  uint32(r.uvarint(math.MaxUint32, "score")),
	}
	if err := r.done(); err != nil {
		return Score{}, err
	}
	if !utf8.Valid(name) {
		return Score{}, fmt.Errorf("%w: name is not UTF-8", ErrRecord)
	}
	s.Name = string(name)
	return s, nil
}

// ParsePickup decodes a pickup record's payload.
func ParsePickup(p []byte) (Pickup, error) {
	if len(p) != 5 {
		return Pickup{}, fmt.Errorf("%w: pickup of %d bytes, want 5", ErrRecord, len(p))
	}
	pk := Pickup{X: binary.LittleEndian.Uint16(p), Y: binary.LittleEndian.Uint16(p[2:]), Kind: p[4]}
	switch {
	case pk.X > WorldSize || pk.Y > WorldSize:
		return Pickup{}, fmt.Errorf("%w: pickup at (%d, %d), outside the world", ErrRecord, pk.X, pk.Y)
	case pk.Kind != PickupHealth:
		return Pickup{}, fmt.Errorf("%w: unknown pickup kind %d", ErrRecord, pk.Kind)
	}
	return pk, nil
}

// RecordFunc receives a record: its id, generation, payload (valid only
// during the call) and whether it is a deletion (then payload is empty).
type RecordFunc = func(id uint32, gen uint16, payload []byte, deleted bool)

// ChangedRecords calls fn for every record that changed since the previous
// call (the first call reports them all): the clock if a round began, then
// deletions of the score records of players who left, then the score
// records of players whose name or score changed (in slot order), then the
// health packs taken (deleted) or back (published), in order.
func (w *World) ChangedRecords(fn RecordFunc) {
	if w.clockDirty {
		w.clockDirty = false
		w.publishClock(fn)
	}
	for _, id := range w.removed {
		fn(RecordScore|uint32(id), 0, nil, true)
	}
	w.removed = w.removed[:0]
	for i := range w.players {
		if p := &w.players[i]; p.active && p.dirty {
			p.dirty = false
			w.publishScore(p, fn)
		}
	}
	for k := range w.pickups {
		if pk := &w.pickups[k]; pk.dirty {
			pk.dirty = false
			w.publishPickup(k, fn)
		}
	}
}

// AllRecords calls fn for every live record (the clock, each player's score,
// each health pack lying on the floor), for a player who just joined. It
// changes nothing that ChangedRecords reports.
func (w *World) AllRecords(fn RecordFunc) {
	w.publishClock(fn)
	for i := range w.players {
		if p := &w.players[i]; p.active {
			w.publishScore(p, fn)
		}
	}
	for k := range w.pickups {
		if w.pickups[k].live {
			w.publishPickup(k, fn)
		}
	}
}

func (w *World) publishClock(fn RecordFunc) {
	w.payload = AppendClock(w.payload[:0], Clock{Round: w.round, Start: w.roundStart, End: w.roundEnd})
	fn(RecordClock, 0, w.payload, false)
}

func (w *World) publishScore(p *player, fn RecordFunc) {
	b := w.payload[:0]
	b = binary.AppendUvarint(b, uint64(p.nameLen))
	b = append(b, p.name[:p.nameLen]...)
	b = binary.AppendUvarint(b, uint64(p.kills))
	b = binary.AppendUvarint(b, uint64(p.deaths))
	w.payload = binary.AppendUvarint(b, uint64(p.score))
	fn(RecordScore|uint32(p.id), 0, w.payload, false)
}

func (w *World) publishPickup(k int, fn RecordFunc) {
	pk := &w.pickups[k]
	id := RecordPickup | uint32(k)
	if !pk.live {
		fn(id, pk.gen, nil, true)
		return
	}
	w.payload = AppendPickup(w.payload[:0], Pickup{X: uint16(pk.x), Y: uint16(pk.y), Kind: PickupHealth})
	fn(id, pk.gen, w.payload, false)
}
