package refformat

import (
	"fmt"

	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
)

// Full sends every field of every entity in every packet: the baseline
// against which delta formats are measured. Its packets are 7 + N * (bytes
// per entity) long.
//
// Schema, when set, fixes the wire layout, and snapshots must have the same
// field widths; when nil, each snapshot's own schema is used.
type Full struct {
	Schema *snapshot.Schema
}

var _ snapstream.Format = Full{}

// AppendFull appends a full packet carrying cur, whose ids should be 0..N-1.
// It panics if cur holds more than MaxWireEntities entities or its schema
// differs from f.Schema.
func (f Full) AppendFull(dst []byte, tick uint32, cur *snapshot.Snapshot) []byte {
	l := encodeLayout(f.Schema, cur)
	return appendFull(dst, tick, cur, &l)
}

// AppendDelta appends a full packet: this format has no deltas.
func (f Full) AppendDelta(dst []byte, tick, baseline uint32, base, cur *snapshot.Snapshot) []byte {
	return f.AppendFull(dst, tick, cur)
}

// ReadHeader reads the 7-byte header. It rejects packets shorter than that,
// tick 0, and any packet naming a baseline, as Full never sends one.
func (f Full) ReadHeader(p []byte, newest uint32) (snapstream.Header, error) {
	h, err := readHeader(p)
	if err != nil {
		return snapstream.Header{}, err
	}
	if h.back != 0 {
		return snapstream.Header{}, fmt.Errorf("%w: delta packet (back %d) in the full-only format", ErrMalformed, h.back)
	}
	return h.public(), nil
}

// Decode decodes the full packet p into out; base is ignored.
func (f Full) Decode(p []byte, h snapstream.Header, base, out *snapshot.Snapshot) error {
	ph, err := checkHeader(p, h, out)
	if err != nil {
		return err
	}
	if ph.back != 0 {
		return fmt.Errorf("%w: delta packet (back %d) in the full-only format", ErrMalformed, ph.back)
	}
	l, err := decodeLayout(f.Schema, out)
	if err != nil {
		return err
	}
	return decodeFull(p[HeaderSize:], ph.n, &l, out)
}

// FullLen returns the length of a full packet carrying cur.
func (f Full) FullLen(cur *snapshot.Snapshot) int { return FullSize(cur) }
