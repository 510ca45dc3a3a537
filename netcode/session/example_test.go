package session_test

import (
	"fmt"

	"github.com/sightline-game/sightline/netcode/delta"
	"github.com/sightline-game/sightline/netcode/serversession"
	"github.com/sightline-game/sightline/netcode/session"
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
)

// Example wires a server session and a client session back to back. The
// client's input datagram carries its input and its ack (the newest tick it
// decoded); the server applies each input once, and its snapshot datagram
// tells the client which input the state includes. Once tick 1 is
// acknowledged, tick 2 goes as a delta against it. The client asked for
// hashes, so it checks every decoded tick against the server's.
func Example() {
	schema := snapshot.MustSchema(4, 0, 0, snapshot.Field{Name: "x", Bits: 12}, snapshot.Field{Name: "y", Bits: 12})
	cfg := session.Config{
		Schema:    schema,
		Format:    func(s *snapshot.Schema) snapstream.Format { return delta.MustCodec(s) },
		InputSize: 2, // say: move x, move y
	}
	server := serversession.New(cfg)
	client := session.NewClientSession(cfg, true)

	x := uint32(100)
	apply := func(seq uint32, in []byte) {
		x += uint32(in[0])
		fmt.Printf("server applies input %d: x = %d\n", seq, x)
	}
	world := snapshot.New(schema)
	for tick := uint32(1); tick <= 2; tick++ {
		// Client -> server: an input (and the ack of the newest tick).
		in := client.AppendInput(nil, []byte{5, 0})
		if err := server.HandleInput(in, apply); err != nil {
			panic(err)
		}
		server.SetAppliedInput(server.LastInputSeq())
		fmt.Println("server: client acked tick", server.AckedTick())

		// Server -> client: the snapshot of this tick.
		world.Reset()
		_ = world.Append(snapshot.EntityID{Index: 0}, x, 200)
		pkt, why := server.AppendSnapshot(nil, tick, world)
		h, err := client.HandleSnapshot(pkt)
		seq, _ := client.AppliedInput(h.Tick)
		_, got := client.Newest()
		fmt.Printf("client: tick %d (delta: %v) x = %d, includes input %d, err %v\n",
			h.Tick, why == snapstream.SentDelta, got.Value(0, 0), seq, err)
	}
	st := client.Stats()
	fmt.Println("hashes matched:", st.Matched, "of", st.Verified)
	// Output:
	// server applies input 1: x = 105
	// server: client acked tick 0
	// client: tick 1 (delta: false) x = 105, includes input 1, err <nil>
	// server applies input 2: x = 110
	// server: client acked tick 1
	// client: tick 2 (delta: true) x = 110, includes input 2, err <nil>
	// hashes matched: 2 of 2
}
