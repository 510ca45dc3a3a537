package snapstream_test

import (
	"testing"

	"github.com/sightline-game/sightline/netcode/delta"
	"github.com/sightline-game/sightline/netcode/refformat"
	"github.com/sightline-game/sightline/netcode/snapstream"
)

// FuzzReceive feeds arbitrary packets to receivers in the middle of a stream:
// whatever arrives, a receiver never panics, and a packet it rejects changes
// nothing it holds.
func FuzzReceive(f *testing.F) {
	s := snapstream.NewSender(delta.MustCodec(schema), schema, 8)
	for tick := uint32(1); tick <= 4; tick++ {
		p, _ := s.Append(nil, tick, world(f, 30, tick))
		f.Add(p)
		s.Ack(tick)
	}
	f.Fuzz(func(t *testing.T, p []byte) {
		for _, format := range []snapstream.Format{delta.MustCodec(schema), refformat.ByteMask{Schema: schema}} {
			src := snapstream.NewSender(format, schema, 8)
			r := snapstream.NewReceiver(format, schema, 8)
			for tick := uint32(1); tick <= 3; tick++ {
				q, _ := src.Append(nil, tick, world(t, 30, tick))
				if _, err := r.Receive(q); err != nil {
					t.Fatal(err)
				}
				src.Ack(tick)
			}
			h, err := r.Receive(p)
			if err != nil {
				if r.Newest() != 3 || !r.Snapshot(3).Equal(world(t, 30, 3)) || !r.Snapshot(1).Equal(world(t, 30, 1)) {
					t.Fatalf("rejected packet (%v) changed the receiver", err)
				}
				continue
			}
			if r.Newest() != h.Tick || r.Snapshot(h.Tick) == nil || r.Snapshot(h.Tick).Len() > schema.MaxEntities {
				t.Fatalf("accepted packet %+v not stored", h)
			}
		}
	})
}
