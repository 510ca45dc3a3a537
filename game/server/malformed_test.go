package server_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/server"
	"github.com/sightline-game/sightline/netcode/linksim"
	"github.com/sightline-game/sightline/netcode/transport"
	"github.com/sightline-game/sightline/netcode/transport/memory"
)

// noisyConn wraps one end of a connection: its Receive hands the owner the
// garbage queued by the test before the real messages, and its Send keeps a
// copy of the newest real datagram per channel, so the test can inject
// truncated versions of genuine traffic too.
type noisyConn struct {
	transport.Conn
	garbage []noise
	last    [transport.NumChannels][]byte
}

type noise struct {
	ch transport.Channel
	p  []byte
}

func (n *noisyConn) Send(ch transport.Channel, p []byte) error {
	if ch < transport.NumChannels {
		n.last[ch] = append(n.last[ch][:0], p...)
	}
	return n.Conn.Send(ch, p)
}

func (n *noisyConn) Receive(fn func(transport.Channel, []byte)) int {
	g := n.garbage
	n.garbage = nil
	for _, m := range g {
		fn(m.ch, m.p)
	}
	return len(g) + n.Conn.Receive(fn)
}

// inject queues count datagrams on ch toward the owner of to, made by
// garbage from the newest genuine datagram the other end sent on ch.
func inject(r *rand.Rand, to *noisyConn, genuine []byte, ch transport.Channel, count int) {
	for range count {
		to.garbage = append(to.garbage, noise{ch, garbage(r, genuine)})
	}
}

// garbage returns a new datagram: random bytes of random length (mostly
// under 64, sometimes up to 1200), or a truncated (sometimes bit-flipped)
// copy of genuine.
func garbage(r *rand.Rand, genuine []byte) []byte {
	if len(genuine) > 1 && r.IntN(2) == 0 {
		p := append([]byte(nil), genuine[:r.IntN(len(genuine))]...)
		if len(p) > 0 && r.IntN(2) == 0 {
			p[r.IntN(len(p))] ^= 1 << r.IntN(8)
		}
		return p
	}
	n := r.IntN(64)
	if r.IntN(8) == 0 {
		n = r.IntN(1200)
	}
	p := make([]byte, n)
	for i := range p {
		p[i] = byte(r.Uint32())
	}
	return p
}

// noisyJoin connects a client whose both ends are wrapped in noisyConns.
func noisyJoin(m *match, seed uint64) (c *client.Client, srv, cli *noisyConn) {
	m.t.Helper()
	link := linksim.Config{Latency: 20 * time.Millisecond}
	srvEnd, cliEnd, err := memory.NewPair(memory.Config{ServerToClient: link, ClientToServer: link, Seed: seed, Now: m.now})
	if err != nil {
		m.t.Fatal(err)
	}
	srv, cli = &noisyConn{Conn: srvEnd}, &noisyConn{Conn: cliEnd}
	m.srv.Add(srv)
	c = client.New(cli, client.Config{Verify: true})
	m.clients = append(m.clients, c)
	m.conns = append(m.conns, cliEnd)
	m.srvEnds = append(m.srvEnds, srvEnd)
	return c, srv, cli
}

// Garbage on the unreliable channels, both ways, is dropped (and counted on
// the server's Inputs): the session goes on decoding, and every verified
// tick after the storm matches.
func TestMalformedDatagramsOnEveryChannel(t *testing.T) {
	m := newMatch(t, server.Config{})
	victim, srv, cli := noisyJoin(m, 1)
	bystander := m.join(linksim.Config{Latency: 20 * time.Millisecond}, 2)
	m.run(60)
	r := rand.New(rand.NewPCG(1, 2))
	const ticks, perTick = 300, 10
	for range ticks {
		// Toward the server (the server end's Receive): inputs and record acks.
		inject(r, srv, cli.last[transport.Inputs], transport.Inputs, perTick)
		inject(r, srv, cli.last[transport.Replicas], transport.Replicas, perTick)
		// Toward the client: snapshots and records.
		inject(r, cli, srv.last[transport.Snapshots], transport.Snapshots, perTick)
		inject(r, cli, srv.last[transport.Replicas], transport.Replicas, perTick)
		m.run(1)
	}
	st := m.srv.Stats()
	if st.Clients != 2 {
		t.Fatalf("a client was dropped for garbage on unreliable channels: %+v", st)
	}
	t.Logf("server: %d bad input datagrams and %d bad record acks, of %d injected each", st.BadInputs, st.BadAcks, ticks*perTick)
	// Some random bytes parse as acks for unknown records; most do not.
	if st.BadAcks < ticks*perTick/2 {
		t.Errorf("server counted %d malformed record acks, injected %d", st.BadAcks, ticks*perTick)
	}
	// A random datagram can parse as an input (flags 0, the right length);
	// nearly none do.
	if st.BadInputs < ticks*perTick*9/10 {
		t.Errorf("server counted %d malformed input datagrams, injected %d", st.BadInputs, ticks*perTick)
	}
	before := victim.Stats()
	m.run(150) // five quiet seconds
	after := victim.Stats()
	t.Logf("victim during storm: %+v, %d bad records datagrams", before.ClientStats, before.BadRecords)
	// A garbage snapshot is dropped as broken framing, a malformed body, a
	// delta against a baseline the client lacks, or an old tick.
	dropped := before.BadFraming + before.Malformed + before.NoBaseline + before.Stale
	if dropped < ticks*perTick*9/10 || before.BadRecords < ticks*perTick*9/10 {
		t.Errorf("victim dropped %d garbage snapshots (framing %d, body %d, no baseline %d, stale %d) and %d records datagrams, of %d each",
			dropped, before.BadFraming, before.Malformed, before.NoBaseline, before.Stale, before.BadRecords, ticks*perTick)
	}
	if d := after.Decoded - before.Decoded; d < 140 {
		t.Errorf("after the storm the victim decoded %d of 150 ticks", d)
	}
	if v, mt := after.Verified-before.Verified, after.Matched-before.Matched; v < 140 || mt != v {
		t.Errorf("after the storm: %d of %d verified ticks matched", mt, v)
	}
	if after.Mismatched != before.Mismatched {
		t.Errorf("%d desyncs after the storm", after.Mismatched-before.Mismatched)
	}
	if bs := bystander.Stats(); bs.Mismatched != 0 || bs.Verified < 480 {
		t.Errorf("bystander: %d mismatched of %d verified", bs.Mismatched, bs.Verified)
	}
	if ps := m.srv.Stats().Players; len(ps) != 2 || ps[0].InputsApplied < 400 {
		t.Errorf("players %+v", ps)
	}
}

// The events channel is reliable and ordered: the transport never delivers
// garbage on it, so a datagram there that does not parse means a broken or
// hostile peer. The server drops that client ("event stream broken", a
// kick) and goes on serving the others; a client that gets garbage on its
// events closes the connection, which the server sees end.
func TestGarbageOnEventsDropsOnlyThatClient(t *testing.T) {
	m := newMatch(t, server.Config{})
	_, srv, _ := noisyJoin(m, 1)
	victim2, _, cli2 := noisyJoin(m, 2)
	other := m.join(linksim.Config{Latency: 20 * time.Millisecond}, 3)
	m.run(60)
	r := rand.New(rand.NewPCG(3, 4))
	inject(r, srv, nil, transport.Events, 50)
	inject(r, cli2, nil, transport.Events, 50)
	m.run(5)
	st := m.srv.Stats()
	if st.Clients != 1 || st.Left != 2 || st.TimedOut != 0 {
		t.Fatalf("after garbage on two clients' events: %+v", st)
	}
	select {
	case <-victim2.Done():
	default:
		t.Fatal("the client fed garbage events did not close")
	}
	select {
	case <-m.clients[0].Done():
	default:
		t.Fatal("the server did not close the client that sent garbage events")
	}
	before := other.Stats()
	m.run(150)
	after := other.Stats()
	if d, mt, v := after.Decoded-before.Decoded, after.Matched-before.Matched, after.Verified-before.Verified; d < 145 || mt != v || v < 145 || after.Mismatched != 0 {
		t.Fatalf("the other client: decoded %d, matched %d of %d, mismatched %d", d, mt, v, after.Mismatched)
	}
}

// Messages a client sends on a channel that runs only toward it (snapshots,
// or a channel number no match uses) are counted, messages and bytes, and
// dropped unread: the client plays on, nothing else counts them, they do
// not keep a silent client alive, and the totals stay after it leaves.
func TestWrongWayTrafficCountedAndDropped(t *testing.T) {
	m := newMatch(t, server.Config{Timeout: 2 * time.Second})
	victim, srv, cli := noisyJoin(m, 1)
	m.run(30)
	r := rand.New(rand.NewPCG(5, 6))
	var msgs, bytes uint64
	for tick := range 60 {
		for _, ch := range []transport.Channel{transport.Snapshots, transport.NumChannels, 200} {
			p := garbage(r, cli.last[transport.Inputs])
			if tick%2 == 0 {
				p = append([]byte(nil), srv.last[transport.Snapshots]...) // a genuine snapshot, echoed back
			}
			srv.garbage = append(srv.garbage, noise{ch, p})
			msgs++
			bytes += uint64(len(p))
		}
		m.run(1)
	}
	st := m.srv.Stats()
	t.Logf("wrong-way: %d messages, %d bytes (injected %d, %d); bad inputs %d, bad acks %d", st.WrongChannel, st.WrongChannelBytes, msgs, bytes, st.BadInputs, st.BadAcks)
	if st.WrongChannel != msgs || st.WrongChannelBytes != bytes || bytes == 0 {
		t.Errorf("counted %d messages of %d bytes on the wrong channel, injected %d of %d", st.WrongChannel, st.WrongChannelBytes, msgs, bytes)
	}
	if len(st.Players) != 1 || st.Players[0].WrongChannel != msgs {
		t.Errorf("player counters %+v, want %d wrong-way messages", st.Players, msgs)
	}
	if st.BadInputs != 0 || st.BadAcks != 0 || st.Left != 0 {
		t.Errorf("wrong-way traffic moved other counters: %+v", st)
	}
	if vs := victim.Stats(); vs.Mismatched != 0 || vs.Verified < 85 {
		t.Errorf("victim: %d mismatched of %d verified", vs.Mismatched, vs.Verified)
	}
	// Wrong-way traffic alone is silence: the client times out.
	for range 3 * tickRate {
		srv.garbage = append(srv.garbage, noise{transport.Snapshots, []byte{1, 2, 3}})
		msgs++
		bytes += 3
		m.run(1, victim)
	}
	st = m.srv.Stats()
	if st.Clients != 0 || st.TimedOut != 1 {
		t.Fatalf("a client sending only on snapshots was kept: %+v", st)
	}
	// A client that left keeps its share of the totals: what it sent up to
	// its timeout (two seconds of the three) was read and counted.
	if lo := msgs - 3*tickRate + 2*tickRate; st.WrongChannel < lo || st.WrongChannel > msgs {
		t.Errorf("after it left: %d wrong-way messages counted, want %d to %d", st.WrongChannel, lo, msgs)
	}
}
