package replica_test

import (
	"fmt"
	"time"

	"github.com/sightline-game/sightline/netcode/replica"
)

// A server replicates a door's state to one client. The first datagram is
// lost; the record goes out again when its resend timer runs out, and once
// acknowledged it is never sent again.
func Example() {
	server := replica.NewSender(replica.SenderConfig{}) // one per client
	client := replica.NewReceiver(replica.ReceiverConfig{})
	client.OnChange(func(r replica.Record) {
		fmt.Printf("client: door %d gen %d is %q\n", r.ID, r.Generation, r.Payload)
	})

	const door, gen = 12, 1
	server.Publish(door, gen, []byte("open"))

	buf := make([]byte, 0, 1200)
	for _, now := range []time.Duration{0, 100 * time.Millisecond, 200 * time.Millisecond, 400 * time.Millisecond} {
		p, n := server.AppendDue(buf[:0], now, 1200)
		if n == 0 {
			fmt.Printf("%v: nothing due\n", now)
			continue
		}
		fmt.Printf("%v: sent %d record(s), attempt %d\n", now, n, server.Attempts(door))
		if now == 0 {
			continue // lost on the way
		}
		ack, err := client.Handle(p, nil)
		if err != nil {
			panic(err)
		}
		if err := server.HandleAck(ack); err != nil {
			panic(err)
		}
	}
	fmt.Println("pending:", server.Pending(), "failing:", server.Failing())
	// Output:
	// 0s: sent 1 record(s), attempt 1
	// 100ms: nothing due
	// 200ms: sent 1 record(s), attempt 2
	// client: door 12 gen 1 is "open"
	// 400ms: nothing due
	// pending: 0 failing: false
}
