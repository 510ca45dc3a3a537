package tag

import (
	"slices"
	"testing"
	"time"

	"github.com/sightline-game/sightline/netcode/linksim"
	"github.com/sightline-game/sightline/netcode/transport/memory"
)

// lossy is one direction of the test's path: 10% loss in bursts of 3
// packets on average, 50 to 100 ms one way, some reordering.
var lossy = linksim.Config{Loss: 0.10, BurstLen: 3, Latency: 50 * time.Millisecond, Jitter: 50 * time.Millisecond, Reorder: 0.02}

// memoryRun is one match in simulated time: a server and its bot clients
// over memory pairs through the link simulator.
type memoryRun struct {
	srv     *Server
	clients []*Client
	heard   [][]Tag // per client, the tags it heard
	sent    []Tag   // the tags the server sent
}

// runMemory plays ticks ticks with n bots over link, tagging for round
// ticks, and returns the run.
func runMemory(t *testing.T, n int, ticks, round uint32, link linksim.Config) *memoryRun {
	t.Helper()
	var now time.Duration
	r := &memoryRun{heard: make([][]Tag, n)}
	srv, err := NewServer(ServerConfig{Seed: 1, RoundTicks: round, Rate: 3000, OnTag: func(tg Tag) { r.sent = append(r.sent, tg) }})
	if err != nil {
		t.Fatal(err)
	}
	r.srv = srv
	bots := make([]*Bot, n)
	for i := range n {
		sc, cc, err := memory.NewPair(memory.Config{ServerToClient: link, ClientToServer: link, Seed: uint64(100 + i),
			Now: func() time.Duration { return now }})
		if err != nil {
			t.Fatal(err)
		}
		srv.Add(sc)
		r.clients = append(r.clients, NewClient(cc, func(tg Tag) { r.heard[i] = append(r.heard[i], tg) }))
		bots[i] = NewBot(uint64(i))
	}
	for range ticks {
		now += time.Second / TickRate
		srv.Step()
		for i, c := range r.clients {
			if err := c.Poll(); err != nil {
				t.Fatalf("client %d: %v", i, err)
			}
			if err := c.SendInput(bots[i].Next(c)); err != nil {
				t.Fatalf("client %d: %v", i, err)
			}
		}
	}
	return r
}

// Six bots over a lossy, slow path: every decoded tick hashes like the
// server's view, nearly every snapshot that arrives decodes, every client
// hears every tag once and in order, and the "it" record converges.
func TestMemoryLossyLink(t *testing.T) {
	const ticks, round = 900, 750 // 30 s, tagging for the first 25
	r := runMemory(t, 6, ticks, round, lossy)
	if len(r.sent) < 5 {
		t.Fatalf("only %d tags in %d ticks: the game is not being played", len(r.sent), round)
	}
	want, _ := r.srv.World().It()
	sent := map[uint16]PeerStats{}
	for _, p := range r.srv.Peers() {
		sent[p.Slot] = p
	}
	for i, c := range r.clients {
		st := c.Stats()
		slot, _, _ := c.Self()
		ps := sent[slot]
		t.Logf("client %d: %d snapshots sent (%d bytes), %d arrived, %d decoded, %d stale, %d verified, %d matched, %d mismatched, %d without baseline, %d tags heard",
			i, ps.Snapshots, ps.Bytes, st.Datagrams, st.Decoded, st.Stale, st.Verified, st.Matched, st.Mismatched, st.NoBaseline, len(r.heard[i]))
		if st.Mismatched != 0 || st.Matched != st.Verified {
			t.Errorf("client %d: %d of %d verified ticks mismatched", i, st.Mismatched, st.Verified)
		}
		// A datagram that arrives is decoded unless it is older than one
		// decoded already (jitter of 50 ms reorders packets 33 ms apart):
		// its state is stale, and it is dropped.
		if float64(st.Decoded) < 0.8*float64(ps.Snapshots) || st.Decoded+st.Stale < st.Datagrams || st.Verified+1 < st.Decoded {
			t.Errorf("client %d: of %d sent, %d arrived, %d decoded (%d stale), %d verified", i, ps.Snapshots, st.Datagrams, st.Decoded, st.Stale, st.Verified)
		}
		if !slices.Equal(r.heard[i], r.sent) {
			t.Errorf("client %d heard tags %v, the server sent %v", i, r.heard[i], r.sent)
		}
		if got, ok := c.It(); !ok || got != want {
			t.Errorf("client %d holds it record %+v (%v), the server %+v", i, got, ok, want)
		}
	}
}

// The same seeds make the same match, bit for bit.
func TestMemoryDeterministic(t *testing.T) {
	a := runMemory(t, 3, 300, 0, lossy)
	b := runMemory(t, 3, 300, 0, lossy)
	if !slices.Equal(a.sent, b.sent) || !slices.Equal(a.srv.Peers(), b.srv.Peers()) {
		t.Fatalf("two runs differ: tags %v / %v, peers %+v / %+v", a.sent, b.sent, a.srv.Peers(), b.srv.Peers())
	}
	for i := range a.clients {
		if a.clients[i].Stats() != b.clients[i].Stats() {
			t.Errorf("client %d: %+v / %+v", i, a.clients[i].Stats(), b.clients[i].Stats())
		}
	}
}
