package main

import (
	"errors"
	"fmt"
	"testing"

	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/refformat"
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
)

// ent is an entity of the match's schema for tests: slot, generation, x, y.
type ent struct {
	slot, gen uint16
	x, y      uint32
}

func viewOf(t testing.TB, ents ...ent) *snapshot.Snapshot {
	t.Helper()
	s := snapshot.New(protocol.Schema())
	for _, e := range ents {
		if err := s.Append(snapshot.EntityID{Index: e.slot, Generation: e.gen}, e.x, e.y, 100, protocol.KindCreature, 0, 40); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func mustViewFormat(t testing.TB, deltas bool) *viewFormat {
	t.Helper()
	f, err := newViewFormat(protocol.Schema(), deltas)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// decode reads p as a receiver does.
func decode(f snapstream.Format, p []byte, base *snapshot.Snapshot) (*snapshot.Snapshot, snapstream.Header, error) {
	out := snapshot.New(protocol.Schema())
	h, err := f.ReadHeader(p, 0)
	if err != nil {
		return nil, h, err
	}
	if h.Full() {
		base = nil
	}
	return out, h, f.Decode(p, h, base, out)
}

// Views whose entities enter, leave and reuse slots go through the
// byte-aligned format whole, and each delta is the reference's bytes plus
// the ids and counts the format adds.
func TestViewFormatRoundTrip(t *testing.T) {
	// 7-byte header, 2+2 bytes of counts; an entity's fields take 2+2+2+1+1+1
	// = 9 bytes, 11 with its id; a removed id 2; the reference's bitmask
	// ceil(kept/8), and per changed entity 1 mask byte and its fields' bytes.
	cases := []struct {
		name      string
		base, cur []ent
		deltaLen  int
	}{
		{"nothing changed", []ent{{1, 0, 10, 10}, {5, 0, 20, 20}}, []ent{{1, 0, 10, 10}, {5, 0, 20, 20}}, 7 + 4 + 1},
		{"one moved", []ent{{1, 0, 10, 10}, {5, 0, 20, 20}}, []ent{{1, 0, 10, 10}, {5, 0, 21, 20}}, 7 + 4 + 1 + 1 + 2},
		{"one entered", []ent{{5, 0, 20, 20}}, []ent{{1, 0, 10, 10}, {5, 0, 20, 20}}, 7 + 4 + 11 + 1},
		{"one left", []ent{{1, 0, 10, 10}, {5, 0, 20, 20}}, []ent{{5, 0, 20, 20}}, 7 + 4 + 2 + 1},
		{"a slot reused", []ent{{1, 0, 10, 10}, {5, 3, 20, 20}}, []ent{{1, 0, 10, 10}, {5, 4, 20, 20}}, 7 + 4 + 2 + 11 + 1},
		{"all new", []ent{{1, 0, 10, 10}}, []ent{{2, 1, 1, 1}, {4095, 15, 32767, 9}}, 7 + 4 + 2 + 22 + 0},
		{"to empty", []ent{{1, 0, 10, 10}, {2, 0, 1, 1}}, nil, 7 + 4 + 4 + 0},
		{"from empty", nil, []ent{{7, 2, 3, 4}}, 7 + 4 + 11 + 0},
		{"entered between moved", []ent{{1, 0, 10, 10}, {9, 0, 5, 5}}, []ent{{1, 0, 11, 10}, {3, 0, 1, 1}, {9, 0, 5, 6}}, 7 + 4 + 11 + 1 + 2*(1+2)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := mustViewFormat(t, true)
			base, cur := viewOf(t, c.base...), viewOf(t, c.cur...)
			p := f.AppendDelta(nil, 20, 17, base, cur)
			if len(p) != c.deltaLen {
				t.Errorf("delta is %d bytes, want %d", len(p), c.deltaLen)
			}
			got, h, err := decode(mustViewFormat(t, true), p, base)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if h != (snapstream.Header{Tick: 20, Baseline: 17}) || !got.Equal(cur) {
				t.Errorf("decoded %+v: %v, want %v", h, got.IDs(), cur.IDs())
			}
			full := f.AppendFull(nil, 21, cur)
			if len(full) != f.FullLen(cur) || len(full) != refformat.HeaderSize+11*cur.Len() {
				t.Errorf("full packet %d bytes, FullLen %d, want %d", len(full), f.FullLen(cur), refformat.HeaderSize+11*cur.Len())
			}
			for _, deltas := range []bool{true, false} {
				got, h, err := decode(mustViewFormat(t, deltas), full, nil)
				if err != nil || h != (snapstream.Header{Tick: 21}) || !got.Equal(cur) {
					t.Errorf("full (deltas %v): %+v %v, err %v", deltas, h, got, err)
				}
			}
		})
	}
}

// The full-only format sends full packets for deltas and refuses a delta.
func TestViewFormatWithoutDeltas(t *testing.T) {
	f := mustViewFormat(t, false)
	base, cur := viewOf(t, ent{1, 0, 10, 10}), viewOf(t, ent{1, 0, 11, 10})
	p := f.AppendDelta(nil, 5, 4, base, cur)
	if len(p) != f.FullLen(cur) || p[4] != 0 {
		t.Errorf("delta of the full-only format: %d bytes, back %d; want a %d-byte full packet", len(p), p[4], f.FullLen(cur))
	}
	d := mustViewFormat(t, true).AppendDelta(nil, 5, 4, base, cur)
	if _, err := f.ReadHeader(d, 0); !errors.Is(err, errMalformed) {
		t.Errorf("a delta read by the full-only format: %v, want %v", err, errMalformed)
	}
}

// Every cut and every flipped byte of valid packets decodes or fails with an
// error; nothing panics.
func TestViewFormatHostileInput(t *testing.T) {
	base := viewOf(t, ent{1, 0, 10, 10}, ent{5, 3, 20, 20}, ent{9, 0, 1, 1})
	cur := viewOf(t, ent{1, 0, 11, 10}, ent{3, 0, 7, 7}, ent{5, 4, 20, 20}, ent{9, 0, 1, 2})
	f := mustViewFormat(t, true)
	packets := [][]byte{f.AppendDelta(nil, 30, 28, base, cur), f.AppendFull(nil, 30, cur)}
	rejected := 0
	for _, p := range packets {
		for n := range len(p) {
			if _, _, err := decode(f, p[:n], base); err != nil {
				rejected++
			}
		}
		for i := range p {
			for _, x := range []byte{0x01, 0x80, 0xff} {
				q := append([]byte(nil), p...)
				q[i] ^= x
				_, _, _ = decode(f, q, base)
			}
		}
	}
	if want := len(packets[0]) + len(packets[1]); rejected != want {
		t.Errorf("%d of %d cut packets rejected", rejected, want)
	}
}

func FuzzViewFormatDecode(f *testing.F) {
	base := viewOf(f, ent{1, 0, 10, 10}, ent{5, 3, 20, 20}, ent{9, 0, 1, 1})
	cur := viewOf(f, ent{1, 0, 11, 10}, ent{3, 0, 7, 7}, ent{5, 4, 20, 20})
	vf := mustViewFormat(f, true)
	f.Add(vf.AppendDelta(nil, 30, 28, base, cur))
	f.Add(vf.AppendFull(nil, 30, cur))
	f.Fuzz(func(t *testing.T, p []byte) {
		got, _, err := decode(vf, p, base)
		if err != nil {
			return
		}
		// What decodes is a valid snapshot: slots increasing, values in range.
		for i := range got.Len() {
			if i > 0 && got.ID(i).Index <= got.ID(i-1).Index {
				t.Fatalf("ids out of order: %v", got.IDs())
			}
			if err := snapshot.New(protocol.Schema()).Append(got.ID(i), got.Row(i)...); err != nil {
				t.Fatalf("entity %d: %v", i, err)
			}
		}
	})
}

// smallest sends a full packet when the delta is not smaller, and counts it.
func TestSmallestChoosesTheSmallerPacket(t *testing.T) {
	base := viewOf(t, ent{1, 0, 10, 10})
	cases := []struct {
		name  string
		cur   *snapshot.Snapshot
		fulls uint64
	}{
		{"a small change", viewOf(t, ent{1, 0, 11, 10}), 0},
		{"everything new", viewOf(t, ent{2, 0, 1, 1}, ent{3, 0, 1, 1}), 1},
	}
	for _, c := range cases {
		inner := mustViewFormat(t, true)
		s := &smallest{Format: inner}
		p := s.AppendDelta(nil, 9, 8, base, c.cur)
		want := min(len(inner.AppendDelta(nil, 9, 8, base, c.cur)), inner.FullLen(c.cur))
		if len(p) != want || s.fulls != c.fulls {
			t.Errorf("%s: %d bytes, %d fulls; want %d bytes, %d fulls", c.name, len(p), s.fulls, want, c.fulls)
		}
		if got, _, err := decode(inner, p, base); err != nil || !got.Equal(c.cur) {
			t.Errorf("%s: decoded %v, err %v", c.name, got, err)
		}
	}
}

// The byte-aligned reference carried over a view: two creatures in view, one
// walks, one leaves, one enters.
func Example_viewFormat() {
	sch := protocol.Schema()
	base, cur := snapshot.New(sch), snapshot.New(sch)
	_ = base.Append(snapshot.EntityID{Index: 4}, 800, 800, 256, protocol.KindCreature, 1, 40)
	_ = base.Append(snapshot.EntityID{Index: 7}, 900, 900, 0, protocol.KindCreature, 0, 40)
	_ = cur.Append(snapshot.EntityID{Index: 4}, 812, 800, 256, protocol.KindCreature, 1, 40)
	_ = cur.Append(snapshot.EntityID{Index: 12, Generation: 1}, 950, 700, 512, protocol.KindCreature, 0, 40)
	f, _ := newViewFormat(sch, true)
	p := f.AppendDelta(nil, 100, 94, base, cur)
	fmt.Printf("delta %d bytes: header 7, counts 4, one id left 2, one entity entering 11, bitmask 1, one x changed 1+2\n", len(p))
	fmt.Printf("full %d bytes: header 7, two entities of 9 bytes and their ids\n", f.FullLen(cur))
	// Output:
	// delta 28 bytes: header 7, counts 4, one id left 2, one entity entering 11, bitmask 1, one x changed 1+2
	// full 29 bytes: header 7, two entities of 9 bytes and their ids
}
