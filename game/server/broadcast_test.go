package server_test

import (
	"testing"

	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/game/server"
	"github.com/sightline-game/sightline/netcode/broadcast"
	"github.com/sightline-game/sightline/netcode/linksim"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// castChunks collects a broadcast's chunks.
type castChunks struct{ b [][]byte }

func (c *castChunks) Chunk(_ broadcast.Header, b []byte) { c.b = append(c.b, b) }

// A match's broadcast is its whole world every tick, its records and the
// events its players hear: played back from its first keyframe, every
// tick decodes to the world's hash; the records it ends with are the
// world's, with a seat for every player; the joins, kills and leaves the
// players heard are in it.
func TestBroadcastHoldsTheWholeMatch(t *testing.T) {
	var chunks castChunks
	m := newArenaMatch(t, server.Config{MaxClients: 6, Broadcast: []broadcast.Sink{&chunks}, FragmentTicks: 30}, linksim.Config{})
	for range 6 {
		m.addPlayer()
	}
	m.play(10 * tickRate)
	m.players[5].Close()
	m.play(2 * tickRate)
	m.srv.EndBroadcast()
	if st := m.srv.BroadcastStats(); st.Ticks != 12*tickRate || st.Fragments != 12 || st.Keyframes != 12 {
		t.Fatalf("broadcast %+v", st)
	}

	pb := broadcast.NewPlayback(protocol.Session().Format(protocol.Schema()), protocol.Schema())
	records := map[uint32]string{}
	kinds := map[uint8]int{}
	for i, b := range chunks.b {
		err := pb.Add(b, func(f *broadcast.Frame, _ *snapshot.Snapshot) {
			for _, r := range f.Records {
				if r.Deleted {
					delete(records, r.ID)
				} else {
					records[r.ID] = string(r.Payload)
				}
			}
			for _, e := range f.Events {
				kinds[e.Kind]++
			}
		})
		if err != nil {
			t.Fatalf("chunk %d: %v", i, err)
		}
	}
	if st := pb.Stats(); st.Mismatched != 0 || st.Ticks != 12*tickRate {
		t.Fatalf("played back %+v", st)
	}
	w, err := protocol.ParseWelcome(pb.Preamble())
	if err != nil || w.Player != 0 || w.MapSeed != m.world.MapSeed() {
		t.Fatalf("preamble %+v (%v), map seed %d", w, err, m.world.MapSeed())
	}
	seats := 0
	for id, p := range records {
		if kind, _ := protocol.RecordKind(id); kind == protocol.RecordSeat {
			seats++
			delete(records, id)
			if _, err := protocol.ParseSeat([]byte(p)); err != nil {
				t.Fatal(err)
			}
		}
	}
	want := map[uint32]string{}
	m.world.AllRecords(func(id uint32, _ uint16, payload []byte, deleted bool) {
		if !deleted {
			want[id] = string(payload)
		}
	})
	if seats != 5 || len(records) != len(want) {
		t.Fatalf("%d seats, %d records; want 5 and %d", seats, len(records), len(want))
	}
	for id, p := range want {
		if records[id] != p {
			t.Fatalf("record %x: %q, the world's %q", id, records[id], p)
		}
	}
	if kinds[uint8(protocol.KindJoin)] != 6 || kinds[uint8(protocol.KindLeave)] != 1 || kinds[uint8(protocol.KindHit)] == 0 {
		t.Fatalf("events by kind %v: want 6 joins, 1 leave, hits", kinds)
	}
}
