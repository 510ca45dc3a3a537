package broadcast_test

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/sightline-game/sightline/netcode/broadcast"
	"github.com/sightline-game/sightline/netcode/delta"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// A fragment's parts come before it, hold its frames in runs of the part's
// length (its bytes, the same), are numbered from 0 and only the last says
// so; a viewer that takes the keyframe and then parts alone decodes every
// tick.
func TestPartsHoldTheFragmentsFrames(t *testing.T) {
	var c chunks
	w := recordParts(t, 300, 30, 7, &c)
	w.Close()
	var parts [][]byte // the parts of the fragment being read, in order
	var headers []broadcast.Header
	fragments := 0
	for i, h := range c.headers {
		switch h.Kind {
		case broadcast.KindPart:
			if h.Part != len(parts) || h.Frames > 7 || (h.Frames < 7 && !h.LastPart) {
				t.Fatalf("chunk %d: part %d of %d frames (last %v) after %d parts", i, h.Part, h.Frames, h.LastPart, len(parts))
			}
			parts, headers = append(parts, c.bytes[i]), append(headers, h)
		case broadcast.KindDeltas:
			fragments++
			var cat []byte
			for k, p := range parts {
				if headers[k].Number != h.Number || headers[k].LastPart != (k == len(parts)-1) {
					t.Fatalf("deltas %d: part %d is of fragment %d, last %v", h.Number, k, headers[k].Number, headers[k].LastPart)
				}
				cat = append(cat, frameBytes(t, p)...)
			}
			if !bytes.Equal(cat, frameBytes(t, c.bytes[i])) || headers[0].First != h.First {
				t.Fatalf("deltas %d: its %d parts do not hold its frames", h.Number, len(parts))
			}
			parts, headers = parts[:0], headers[:0]
		}
	}
	if fragments != 10 || w.Stats().Parts != 50 {
		t.Fatalf("%d fragments, %d parts; want 10 and 50", fragments, w.Stats().Parts)
	}

	var m match
	var rec recorded
	pb := broadcast.NewPlayback(delta.MustCodec(schema), schema)
	for i, b := range c.bytes {
		if c.headers[i].Kind == broadcast.KindDeltas {
			continue
		}
		if err := pb.Add(b, rec.frame(t, &m)); err != nil {
			t.Fatalf("chunk %d (%v): %v", i, c.headers[i].Kind, err)
		}
	}
	if st := pb.Stats(); st.Ticks != 300 || st.Mismatched != 0 || st.Parts != 50 || st.Fragments != 0 || pb.Next() != 10 {
		t.Fatalf("keyframes and parts alone: %+v, next %d", st, pb.Next())
	}
}

// frameBytes returns a deltas chunk's or part's frames, without its header.
func frameBytes(t *testing.T, b []byte) []byte {
	t.Helper()
	var c broadcast.Chunk
	if err := broadcast.ParseChunk(b, &c); err != nil {
		t.Fatal(err)
	}
	// The header's length: a chunk of one empty frame (7 bytes: hash,
	// empty snapshot, no records, no events) at the same first tick.
	one := c
	one.Frames = []broadcast.Frame{{Tick: c.Frames[0].Tick}}
	return b[len(broadcast.AppendChunk(nil, &one))-7:]
}

// A viewer that took some parts of a fragment may take the whole fragment
// after them: the Playback passes over the ticks it has and goes on. Parts
// that do not follow are refused and change nothing.
func TestPartsThenTheWholeFragment(t *testing.T) {
	var c chunks
	w := recordParts(t, 61, 30, 7, &c) // key 0, parts and deltas 0 and 1, key 2
	w.Close()
	find := func(k broadcast.Kind, n uint32, part int) []byte {
		for i, h := range c.headers {
			if h.Kind == k && h.Number == n && (k != broadcast.KindPart || h.Part == part) {
				return c.bytes[i]
			}
		}
		t.Fatalf("no %v %d/%d", k, n, part)
		return nil
	}
	var m match
	var ticks []uint32
	pb := broadcast.NewPlayback(delta.MustCodec(schema), schema)
	add := func(b []byte) error {
		return pb.Add(b, func(f *broadcast.Frame, world *snapshot.Snapshot) {
			if !world.Equal(m.at(t, f.Tick)) {
				t.Fatalf("tick %d decoded unlike the match", f.Tick)
			}
			ticks = append(ticks, f.Tick)
		})
	}
	for _, b := range [][]byte{find(broadcast.KindKeyframe, 0, 0), find(broadcast.KindPart, 0, 0), find(broadcast.KindPart, 0, 1)} {
		if err := add(b); err != nil {
			t.Fatal(err)
		}
	}
	// Out of order: part 3 before part 2, a part of fragment 1, part 1
	// again.
	for _, b := range [][]byte{find(broadcast.KindPart, 0, 3), find(broadcast.KindPart, 1, 0), find(broadcast.KindPart, 0, 1)} {
		if err := add(b); !errors.Is(err, broadcast.ErrOutOfOrder) {
			t.Fatalf("a part out of order: %v", err)
		}
	}
	if pb.Tick() != 15 || pb.Next() != 0 {
		t.Fatalf("at tick %d, next %d after refusals; want 15 and 0", pb.Tick(), pb.Next())
	}
	for _, b := range [][]byte{find(broadcast.KindDeltas, 0, 0), find(broadcast.KindPart, 1, 0), find(broadcast.KindDeltas, 1, 0)} {
		if err := add(b); err != nil {
			t.Fatal(err)
		}
	}
	for i, tick := range ticks {
		if tick != uint32(i+1) {
			t.Fatalf("ticks %v: not each once, in order", ticks)
		}
	}
	if len(ticks) != 61 || pb.Next() != 2 {
		t.Fatalf("%d ticks, next %d; want 61 and 2", len(ticks), pb.Next())
	}
}

// A match that ends on a part's last tick writes no last part: the
// fragment's parts end unmarked, and the whole fragment follows them.
func TestMatchEndingOnAPartsEnd(t *testing.T) {
	var c chunks
	w := recordParts(t, 15, 30, 7, &c) // ticks 2-15: parts of 7 and 7
	w.Close()
	var kinds []string
	for _, h := range c.headers {
		s := h.Kind.String()
		if h.LastPart {
			s += " (last)"
		}
		kinds = append(kinds, s)
	}
	if got := fmt.Sprint(kinds); got != "[key part part delta]" {
		t.Fatalf("chunks %s", got)
	}
	pb := broadcast.NewPlayback(delta.MustCodec(schema), schema)
	for i, b := range c.bytes {
		if err := pb.Add(b, nil); err != nil {
			t.Fatalf("chunk %d: %v", i, err)
		}
	}
	if st := pb.Stats(); st.Ticks != 15 || st.Parts != 2 || st.Fragments != 1 || pb.Next() != 1 {
		t.Fatalf("%+v, next %d", st, pb.Next())
	}
}
