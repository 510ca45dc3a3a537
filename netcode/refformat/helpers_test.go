package refformat_test

import (
	"encoding/binary"
	"math/rand/v2"

	"github.com/sightline-game/sightline/netcode/snapshot"
)

// trafficSchema is the traffic model's layout: 7 bytes per entity.
func trafficSchema(maxEntities int) *snapshot.Schema {
	return snapshot.MustSchema(10, 4, maxEntities,
		snapshot.Field{Name: "x", Bits: 16},
		snapshot.Field{Name: "y", Bits: 16},
		snapshot.Field{Name: "heading", Bits: 10},
		snapshot.Field{Name: "state", Bits: 8},
	)
}

// wideSchema has odd widths and more than 8 fields (two field-mask bytes).
func wideSchema(maxEntities int) *snapshot.Schema {
	widths := []uint8{1, 3, 8, 9, 16, 17, 24, 32, 5, 12}
	fields := make([]snapshot.Field, len(widths))
	for i, w := range widths {
		fields[i] = snapshot.Field{Name: string(rune('a' + i)), Bits: w}
	}
	return snapshot.MustSchema(10, 0, maxEntities, fields...)
}

// randomSnapshot returns n entities with ids 0..n-1 and random values.
func randomSnapshot(s *snapshot.Schema, n int, rng *rand.Rand) *snapshot.Snapshot {
	snap := snapshot.New(s)
	row := make([]uint32, s.NumFields())
	for i := range n {
		for f, fd := range s.Fields {
			row[f] = uint32(rng.Uint64N(uint64(fd.Max()) + 1))
		}
		if err := snap.Append(snapshot.EntityID{Index: uint16(i)}, row...); err != nil {
			panic(err)
		}
	}
	return snap
}

// mutate returns a copy of base where each entity changed with probability
// share, each field of a changed entity with probability 1/2 (at least one).
func mutate(base *snapshot.Snapshot, share float64, rng *rand.Rand) *snapshot.Snapshot {
	s := base.Schema()
	cur := snapshot.New(s)
	cur.CopyFrom(base)
	for i := range cur.Len() {
		if rng.Float64() >= share {
			continue
		}
		row := cur.Row(i)
		must := rng.IntN(len(row))
		for f := range row {
			if f != must && rng.IntN(2) == 0 {
				continue
			}
			m := uint64(s.Fields[f].Max())
			row[f] = uint32((uint64(row[f]) + 1 + rng.Uint64N(m)) % (m + 1)) // any other value
		}
	}
	return cur
}

// packet builds raw packets for malformed-input tests.
type packet []byte

func header(tick uint32, back uint8, n uint16) packet {
	p := binary.LittleEndian.AppendUint32(nil, tick)
	p = append(p, back)
	return binary.LittleEndian.AppendUint16(p, n)
}

func (p packet) bytes(b ...byte) packet   { return append(p, b...) }
func (p packet) zeros(n int) packet       { return append(p, make([]byte, n)...) }
func clone(p []byte) packet               { return append(packet(nil), p...) }
func (p packet) set(i int, b byte) packet { q := clone(p); q[i] = b; return q }
