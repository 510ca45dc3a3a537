package linksim_test

import (
	"fmt"
	"time"

	"github.com/sightline-game/sightline/netcode/linksim"
	"github.com/sightline-game/sightline/netcode/transport"
)

// ExampleLink sends eight packets 10ms apart over a lossy, jittery link and
// steps simulated time from one arrival to the next. With seed 2, packets 5
// and 6 are lost and packet 3 overtakes packet 2.
func ExampleLink() {
	link, err := linksim.New(linksim.Config{
		Loss:    0.2,
		Latency: 30 * time.Millisecond,
		Jitter:  15 * time.Millisecond,
	}, 2)
	if err != nil {
		panic(err)
	}
	for i := range 8 {
		now := time.Duration(i) * 10 * time.Millisecond
		link.Send(now, fmt.Appendf(nil, "pkt%d sent %v", i, now))
	}
	for {
		at, ok := link.NextArrival()
		if !ok {
			break
		}
		link.Deliver(at, func(p []byte) {
			fmt.Printf("%-9v %s\n", at.Round(time.Microsecond), p)
		})
	}
	s := link.Stats()
	fmt.Printf("sent %d, lost %d, delivered %d\n", s.Sent, s.Lost, s.Delivered)
	// Output:
	// 30.08ms   pkt0 sent 0s
	// 50.032ms  pkt1 sent 10ms
	// 60.318ms  pkt3 sent 30ms
	// 63.148ms  pkt2 sent 20ms
	// 74.236ms  pkt4 sent 40ms
	// 102.924ms pkt7 sent 70ms
	// sent 8, lost 2, delivered 6
}

// ExamplePath carries three channels one way over a link with 20ms latency
// and up to 10ms of jitter; with seed 10 the second snapshot overtakes the
// first. The event gets the latency but no jitter (events are never lost or
// reordered), so it is first in. Each message comes out tagged with its
// channel.
func ExamplePath() {
	path, err := linksim.NewPath(linksim.Config{Latency: 20 * time.Millisecond, Jitter: 10 * time.Millisecond}, 10)
	if err != nil {
		panic(err)
	}
	path.Send(0, transport.Snapshots, []byte("snapshot 1"))
	path.Send(0, transport.Events, []byte("kill feed"))
	path.Send(5*time.Millisecond, transport.Snapshots, []byte("snapshot 2"))
	path.Send(5*time.Millisecond, transport.Inputs, []byte("input 1"))

	var batch linksim.Batch
	path.Deliver(time.Second, batch.Add)
	for i := range batch.Len() {
		ch, p := batch.At(i)
		fmt.Printf("%-9v %s\n", ch, p)
	}
	// Output:
	// events    kill feed
	// inputs    input 1
	// snapshots snapshot 2
	// snapshots snapshot 1
}
