package protocol

import (
	"encoding/binary"
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
//	RecordPickup | n       pickup n (n from 0): deleted when taken,
//	                       published again with the next generation when it
//	                       comes back elsewhere
//	RecordLoadout | player what a player carries (generation 0); deleted
//	                       when the player leaves
//
// Payloads (varints are unsigned LEB128 in shortest form; a parser rejects
// any other form, any bytes left over, and values out of range):
//
//	clock    round varint (>= 1), start tick varint, end tick varint
//	         (> start), next round's start tick varint (>= end)
//	score    name length varint (<= arena.MaxNameBytes), name (UTF-8), kills
//	         varint, deaths varint, score varint, shots varint, hits varint
//	         (<= shots) (all < 2^32)
//	pickup   x uint16 LE, y uint16 LE (whole px, <= WorldSize), kind byte
//	         (arena.PickupHealth, PickupSpread or PickupPower)
//	loadout  weapon byte (arena.WeaponGun or WeaponSpread), spread shots
//	         left varint (0 with the gun, 1..arena.SpreadShots with the
//	         spread gun), power-up end tick varint (< 2^32; 0: none)
//
// Clock ticks count World Steps, which the match server numbers alike (its
// tick N is the world after N Steps): the first round starts at tick 0,
// before the first snapshot (tick 1); a round ends, and RoundOver is sent,
// on the snapshot tick End, and End - tick ticks remain at tick; from End
// to the next round's start the intermission runs (arena.Clock).
const (
	RecordKindShift        = 28
	RecordIndexMask        = 1<<RecordKindShift - 1
	RecordClock     uint32 = 1 << RecordKindShift
	RecordScore     uint32 = 2 << RecordKindShift
	RecordPickup    uint32 = 3 << RecordKindShift
	RecordLoadout   uint32 = 4 << RecordKindShift
	// RecordSeat | player is the slot of the player's entity (generation
	// 0), deleted when the player leaves. Only broadcasts and replays carry
	// it: a viewer follows a player by it, where a player's own client
	// learns its slot from its welcome and needs no other's.
	RecordSeat uint32 = 5 << RecordKindShift
)

// AppendSeat appends the payload of a seat record: the slot as a varint.
func AppendSeat(dst []byte, slot uint16) []byte {
	return binary.AppendUvarint(dst, uint64(slot))
}

// ParseSeat decodes the payload of a seat record.
func ParseSeat(p []byte) (uint16, error) {
	r := bodyReader{p: p}
	slot := uint16(r.uvarint(math.MaxUint16))
	if err := r.done(); err != nil {
		return 0, err
	}
	return slot, nil
}

// RecordKind splits a record id into its kind (RecordClock, RecordScore,
// RecordPickup, RecordLoadout or another value) and its index.
func RecordKind(id uint32) (kind, index uint32) {
	return id &^ RecordIndexMask, id & RecordIndexMask
}

// RecordID returns the id record r travels under.
func RecordID(r arena.Record) uint32 {
	switch r.Kind {
	case arena.RecordClock:
		return RecordClock
	case arena.RecordScore:
		return RecordScore | r.Index&RecordIndexMask
	case arena.RecordPickup:
		return RecordPickup | r.Index&RecordIndexMask
	case arena.RecordLoadout:
		return RecordLoadout | r.Index&RecordIndexMask
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
	case arena.RecordLoadout:
		return AppendLoadout(dst, r.Loadout)
	}
	return dst
}

// AppendClock appends the payload of a clock record.
func AppendClock(dst []byte, c arena.Clock) []byte {
	dst = binary.AppendUvarint(dst, uint64(c.Round))
	dst = binary.AppendUvarint(dst, uint64(c.Start))
	dst = binary.AppendUvarint(dst, uint64(c.End))
	return binary.AppendUvarint(dst, uint64(c.Next))
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
	dst = binary.AppendUvarint(dst, uint64(s.Score))
	dst = binary.AppendUvarint(dst, uint64(s.Shots))
	return binary.AppendUvarint(dst, uint64(s.Hits))
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
		Next:  uint32(r.uvarint(math.MaxUint32, "next")),
	}
	if err := r.done(); err != nil {
		return arena.Clock{}, err
	}
	if c.Round == 0 || c.End <= c.Start || c.Next < c.End {
		return arena.Clock{}, fmt.Errorf("%w: round %d from tick %d to %d, next at %d", ErrRecord, c.Round, c.Start, c.End, c.Next)
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
		Shots:  uint32(r.uvarint(math.MaxUint32, "shots")),
		Hits:   uint32(r.uvarint(math.MaxUint32, "hits")),
	}
	if err := r.done(); err != nil {
		return arena.Score{}, err
	}
	if !utf8.Valid(name) {
		return arena.Score{}, fmt.Errorf("%w: name is not UTF-8", ErrRecord)
	}
	if s.Hits > s.Shots {
		return arena.Score{}, fmt.Errorf("%w: %d hits of %d shots", ErrRecord, s.Hits, s.Shots)
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
	case pk.Kind > arena.PickupPower:
		return arena.Pickup{}, fmt.Errorf("%w: unknown pickup kind %d", ErrRecord, pk.Kind)
	}
	return pk, nil
}

// AppendLoadout appends the payload of a loadout record.
func AppendLoadout(dst []byte, l arena.Loadout) []byte {
	dst = append(dst, byte(l.Weapon))
	dst = binary.AppendUvarint(dst, uint64(l.Shots))
	return binary.AppendUvarint(dst, uint64(l.PowerEnd))
}

// ParseLoadout decodes a loadout record's payload.
func ParseLoadout(p []byte) (arena.Loadout, error) {
	r := payloadReader{p: p}
	w := r.bytes(1, "weapon")
	l := arena.Loadout{
		Shots:    uint32(r.uvarint(arena.SpreadShots, "spread shots")),
		PowerEnd: uint32(r.uvarint(math.MaxUint32, "power-up end")),
	}
	if err := r.done(); err != nil {
		return arena.Loadout{}, err
	}
	l.Weapon = arena.Weapon(w[0])
	switch {
	case l.Weapon != arena.WeaponGun && l.Weapon != arena.WeaponSpread:
		return arena.Loadout{}, fmt.Errorf("%w: unknown weapon %d", ErrRecord, l.Weapon)
	case (l.Weapon == arena.WeaponSpread) != (l.Shots > 0):
		return arena.Loadout{}, fmt.Errorf("%w: weapon %d with %d spread shots", ErrRecord, l.Weapon, l.Shots)
	}
	return l, nil
}
