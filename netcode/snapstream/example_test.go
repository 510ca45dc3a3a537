package snapstream_test

import (
	"fmt"

	"github.com/sightline-game/sightline/netcode/delta"
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
)

// Example streams four ticks of one moving entity to a client. The first
// packet is full, as nothing is acknowledged yet; once the client acks, each
// packet is a delta against the newest acknowledged tick. Tick 3 is lost on
// the way, so the client does not ack it, and tick 4 goes against tick 2,
// which the client holds.
func Example() {
	schema := snapshot.MustSchema(4, 0, 0, snapshot.Field{Name: "x", Bits: 16}, snapshot.Field{Name: "y", Bits: 16})
	sender := snapstream.NewSender(delta.MustCodec(schema), schema, 0)
	receiver := snapstream.NewReceiver(delta.MustCodec(schema), schema, 0)
	shape := map[snapstream.Why]string{snapstream.SentDelta: "delta", snapstream.FullNoAck: "full (no ack yet)"}

	cur := snapshot.New(schema)
	var pkt []byte
	for tick := uint32(1); tick <= 4; tick++ {
		cur.Reset()
		_ = cur.Append(snapshot.EntityID{Index: 1}, 1000+10*tick, 2000)
		var why snapstream.Why
		pkt, why = sender.Append(pkt[:0], tick, cur)
		fmt.Printf("tick %d: %2d bytes, %s", tick, len(pkt), shape[why])
		if tick == 3 {
			fmt.Println(", lost")
			continue
		}
		h, err := receiver.Receive(pkt)
		if err != nil {
			panic(err)
		}
		if !h.Full() {
			fmt.Printf(" against %d", h.Baseline)
		}
		sender.Ack(receiver.Newest()) // the ack rides on the client's next input packet
		fmt.Printf(", x = %d, acked %d\n", receiver.Snapshot(h.Tick).Value(0, 0), sender.AckedTick())
	}
	// Output:
	// tick 1: 10 bytes, full (no ack yet), x = 1010, acked 1
	// tick 2:  6 bytes, delta against 1, x = 1020, acked 2
	// tick 3:  6 bytes, delta, lost
	// tick 4:  6 bytes, delta against 2, x = 1040, acked 4
}
