package server_test

import (
	"context"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/bots/brain"
	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/game/server"
	"github.com/sightline-game/sightline/netcode/transport"
	"github.com/sightline-game/sightline/netcode/transport/webrtc"
)

// stormConn wraps one end of a real connection. While the storm is on,
// every genuine datagram its owner sends on the pace channel (one a tick)
// is followed, through the same real connection, by perSend garbage
// datagrams on each storm channel: random bytes, or a truncated and
// sometimes bit-flipped copy of the newest genuine datagram on that channel
// (see garbage). Pacing on the owner's ticks keeps the garbage within the
// unreliable channels' send buffers.
type stormConn struct {
	transport.Conn
	pace    transport.Channel
	chans   []transport.Channel
	perSend int
	on      *atomic.Bool

	mu      sync.Mutex
	r       *rand.Rand
	last    [transport.NumChannels][]byte
	sent    [transport.NumChannels]int // garbage datagrams Send accepted
	refused [transport.NumChannels]int // garbage datagrams Send refused (congested)
}

func (s *stormConn) Send(ch transport.Channel, p []byte) error {
	err := s.Conn.Send(ch, p)
	s.mu.Lock()
	defer s.mu.Unlock()
	if ch < transport.NumChannels && err == nil {
		s.last[ch] = append(s.last[ch][:0], p...)
	}
	if ch != s.pace || !s.on.Load() {
		return err
	}
	for _, gc := range s.chans {
		for range s.perSend {
			if s.Conn.Send(gc, garbage(s.r, s.last[gc])) == nil {
				s.sent[gc]++
			} else {
				s.refused[gc]++
			}
		}
	}
	return err
}

// counts returns the garbage datagrams sent and refused on ch.
func (s *stormConn) counts(ch transport.Channel) (sent, refused int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sent[ch], s.refused[ch]
}

// Thousands of random and truncated datagrams on every unreliable channel,
// both ways, through a real WebRTC connection on loopback: nobody is
// dropped, the garbage is counted where it lands, and after the storm the
// victim decodes again with every verified tick matching; a bystander never
// notices.
func TestMalformedDatagramsOverRealWebRTC(t *testing.T) {
	const perSend = 5 // garbage datagrams per channel per genuine tick datagram
	var storm atomic.Bool
	srvStorm := make(chan *stormConn, 1)
	var accepted atomic.Int32
	// The first connection the server accepts is the victim's: the server
	// storms its snapshots and records channels.
	wrap := func(c transport.Conn) transport.Conn {
		if accepted.Add(1) != 1 {
			return c
		}
		s := &stormConn{Conn: c, pace: transport.Snapshots, chans: []transport.Channel{transport.Snapshots, transport.Replicas},
			perSend: perSend, on: &storm, r: rand.New(rand.NewPCG(1, 2))}
		srvStorm <- s
		return s
	}
	m := startWrappedRTCMatch(t, webrtc.ServerConfig{UDPHost: "127.0.0.1", IncludeLoopback: true}, server.Config{}, wrap)
	dial := webrtc.DialConfig{IncludeLoopback: true, SettingEngine: loopback}

	// The victim dials itself, to storm its inputs and record-acks channels.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a hang guard
	defer cancel()
	vdial := dial
	vdial.HTTPClient = m.http
	vdial.Version = protocol.Version
	conn, err := webrtc.Dial(ctx, strings.TrimSuffix(m.url, "/")+client.SignalPath, vdial)
	if err != nil {
		t.Fatal(err)
	}
	cli := &stormConn{Conn: conn, pace: transport.Inputs, chans: []transport.Channel{transport.Inputs, transport.Replicas},
		perSend: perSend, on: &storm, r: rand.New(rand.NewPCG(3, 4))}
	victim := client.New(cli, client.Config{Verify: true})
	runCtx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	halt := func() { stop(); <-done }
	go func() {
		defer close(done)
		w := brain.NewWanderer(1)
		victim.Run(runCtx, protocol.DefaultTickRate, func(uint32) arena.Input { return w.Next() })
	}()
	t.Cleanup(func() { halt(); victim.Close() })
	var srv *stormConn
	select {
	case srv = <-srvStorm:
	case <-ctx.Done():
		t.Fatal("the server did not accept the victim")
	}
	bystander := m.play(t, dial, 2)

	waitFor := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(time.Minute); !ok(); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s", what)
			}
		}
	}
	waitFor("two clients", func() bool { return m.match.Stats().Clients == 2 })
	waitFor("the victim to decode", func() bool { return victim.Stats().Verified >= 15 })

	start := m.match.Stats()
	storm.Store(true)
	minClients := 2
	for end := time.Now().Add(9 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		minClients = min(minClients, m.match.Stats().Clients)
	}
	storm.Store(false)
	time.Sleep(100 * time.Millisecond) // the last garbage lands
	before, srvBefore := victim.Stats(), m.match.Stats()

	// Quiet: 3 s, or until the victim has verified 60 more ticks if a
	// busy machine takes longer (a minute at most).
	quiet := time.Now()
	for time.Since(quiet) < 3*time.Second || (victim.Stats().Verified-before.Verified < 60 && time.Since(quiet) < time.Minute) {
		time.Sleep(50 * time.Millisecond)
	}
	after, srvAfter := victim.Stats(), m.match.Stats()
	halt()
	bs := bystander.c.Stats()

	sentSnap, refusedSnap := srv.counts(transport.Snapshots)
	sentRec, refusedRec := srv.counts(transport.Replicas)
	sentIn, refusedIn := cli.counts(transport.Inputs)
	sentAck, refusedAck := cli.counts(transport.Replicas)
	t.Logf("garbage sent (refused as congested): server->client snapshots %d (%d), records %d (%d); client->server inputs %d (%d), record acks %d (%d)",
		sentSnap, refusedSnap, sentRec, refusedRec, sentIn, refusedIn, sentAck, refusedAck)
	t.Logf("server: clients %d (fewest during the storm %d), bad inputs %d, bad acks %d (before the storm %d, %d)",
		srvAfter.Clients, minClients, srvAfter.BadInputs, srvAfter.BadAcks, start.BadInputs, start.BadAcks)
	dropped := after.BadFraming + after.Malformed + after.NoBaseline + after.Stale
	t.Logf("victim: dropped %d snapshots (framing %d, body %d, no baseline %d, stale %d), %d bad records datagrams; decoded %d, verified %d, matched %d, mismatched %d",
		dropped, after.BadFraming, after.Malformed, after.NoBaseline, after.Stale, after.BadRecords, after.Decoded, after.Verified, after.Matched, after.Mismatched)
	t.Logf("victim after the storm (3 s): decoded %d, verified %d, matched %d", after.Decoded-before.Decoded,
		after.Verified-before.Verified, after.Matched-before.Matched)
	t.Logf("bystander: decoded %d, verified %d, matched %d, mismatched %d", bs.Decoded, bs.Verified, bs.Matched, bs.Mismatched)

	for _, c := range []struct {
		what string
		n    int
	}{{"snapshots", sentSnap}, {"records", sentRec}, {"inputs", sentIn}, {"record acks", sentAck}} {
		if c.n < 1000 {
			t.Errorf("only %d garbage datagrams went on %s", c.n, c.what)
		}
	}
	if minClients != 2 || srvAfter.Clients != 2 || srvAfter.Left != 0 || srvAfter.TimedOut != 0 {
		t.Fatalf("a client was dropped for garbage on unreliable channels (fewest clients %d): %+v", minClients, srvAfter)
	}
	// Unreliable delivery on loopback is nearly, not certainly, lossless.
	if bad := srvAfter.BadInputs - start.BadInputs; bad < uint64(sentIn)*8/10 || bad > uint64(sentIn) {
		t.Errorf("server counted %d malformed input datagrams, %d were sent", bad, sentIn)
	}
	if bad := srvAfter.BadAcks - start.BadAcks; bad < uint64(sentAck)*8/10 || bad > uint64(sentAck) {
		t.Errorf("server counted %d malformed record acks, %d were sent", bad, sentAck)
	}
	if dropped < uint64(sentSnap)*8/10 {
		t.Errorf("victim dropped %d snapshots, %d garbage ones were sent", dropped, sentSnap)
	}
	if after.BadRecords < uint64(sentRec)*8/10 || after.BadRecords > uint64(sentRec) {
		t.Errorf("victim counted %d malformed records datagrams, %d were sent", after.BadRecords, sentRec)
	}
	if d := after.Decoded - before.Decoded; d < 60 {
		t.Errorf("after the storm the victim decoded %d ticks", d)
	}
	if v := after.Verified - before.Verified; v < 60 {
		t.Errorf("after the storm the victim verified %d ticks", v)
	}
	if after.Mismatched != 0 || after.Matched != after.Verified {
		t.Errorf("victim: %d of %d verified ticks matched, %d mismatched", after.Matched, after.Verified, after.Mismatched)
	}
	if bs.Mismatched != 0 || bs.Matched != bs.Verified || bs.Verified < 100 {
		t.Errorf("bystander: %d of %d verified ticks matched, %d mismatched", bs.Matched, bs.Verified, bs.Mismatched)
	}
	applied := map[server.PlayerID]uint64{}
	for _, ps := range srvBefore.Players {
		applied[ps.ID] = ps.InputsApplied
	}
	if len(srvAfter.Players) != 2 {
		t.Fatalf("players %+v", srvAfter.Players)
	}
	for _, ps := range srvAfter.Players {
		if grew := ps.InputsApplied - applied[ps.ID]; grew < 60 {
			t.Errorf("player %d: %d inputs applied in the 3 s after the storm", ps.ID, grew)
		}
	}
}
