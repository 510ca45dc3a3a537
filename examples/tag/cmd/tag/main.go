// Command tag plays a match of the example game of tag (package
// examples/tag) with headless bots over the in-memory transport and the
// link simulator, in simulated time, and prints what each client decoded
// and verified.
//
//	go run ./examples/tag/cmd/tag -bots 6 -seconds 30 -loss 0.1 -latency 50ms -jitter 50ms
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/sightline-game/sightline/examples/tag"
	"github.com/sightline-game/sightline/netcode/linksim"
)

func main() {
	bots := flag.Int("bots", 6, "players")
	seconds := flag.Float64("seconds", 30, "length of the match")
	round := flag.Float64("round", 0, "seconds of tagging (0: the whole match)")
	rate := flag.Float64("rate", 3000, "snapshot budget per client, bytes/s")
	loss := flag.Float64("loss", 0.1, "share of datagrams lost, each way")
	burst := flag.Float64("burst", 3, "mean length of a loss burst, datagrams")
	latency := flag.Duration("latency", 50*time.Millisecond, "one-way latency")
	jitter := flag.Duration("jitter", 50*time.Millisecond, "extra one-way delay, uniform up to this")
	seed := flag.Uint64("seed", 1, "seed of the match and the links")
	flag.Parse()
	r, err := tag.Simulate(tag.SimConfig{Bots: *bots, Ticks: uint32(*seconds * tag.TickRate), RoundTicks: uint32(*round * tag.TickRate),
		Rate: *rate, Seed: *seed, Link: linksim.Config{Loss: *loss, BurstLen: *burst, Latency: *latency, Jitter: *jitter}})
	if err != nil {
		fmt.Fprintln(os.Stderr, "tag:", err)
		os.Exit(1)
	}
	peers := map[uint16]tag.PeerStats{}
	for _, p := range r.Server.Peers() {
		peers[p.Slot] = p
	}
	fmt.Printf("%d ticks, %d tags\n", r.Server.Tick(), len(r.Sent))
	fmt.Println("client  sent  bytes/tick  arrived  decoded  stale  verified  mismatched  tags heard")
	for i, c := range r.Clients {
		st := c.Stats()
		slot, _, _ := c.Self()
		p := peers[slot]
		fmt.Printf("%6d  %4d  %10.1f  %7d  %7d  %5d  %8d  %10d  %10d\n", i, p.Snapshots, float64(p.Bytes)/float64(max(p.Snapshots, 1)),
			st.Datagrams, st.Decoded, st.Stale, st.Verified, st.Mismatched, len(r.Heard[i]))
	}
}
