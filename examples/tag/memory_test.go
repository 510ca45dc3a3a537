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

// runMemory plays ticks ticks with n bots over link, tagging for round
// ticks.
func runMemory(t *testing.T, n int, ticks, round uint32, link linksim.Config) *SimResult {
	t.Helper()
	r, err := Simulate(SimConfig{Bots: n, Ticks: ticks, RoundTicks: round, Rate: 3000, Link: link, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Six bots over a lossy, slow path: every decoded tick hashes like the
// server's view, nearly every snapshot that arrives decodes, every client
// hears every tag once and in order, and the "it" record converges.
func TestMemoryLossyLink(t *testing.T) {
	const ticks, round = 900, 750 // 30 s, tagging for the first 25
	r := runMemory(t, 6, ticks, round, lossy)
	if len(r.Sent) < 5 {
		t.Fatalf("only %d tags in %d ticks: the game is not being played", len(r.Sent), round)
	}
	want, _ := r.Server.World().It()
	sent := map[uint16]PeerStats{}
	for _, p := range r.Server.Peers() {
		sent[p.Slot] = p
	}
	for i, c := range r.Clients {
		st := c.Stats()
		slot, _, _ := c.Self()
		ps := sent[slot]
		t.Logf("client %d: %d snapshots sent (%d bytes), %d arrived, %d decoded, %d stale, %d verified, %d matched, %d mismatched, %d without baseline, %d tags heard",
			i, ps.Snapshots, ps.Bytes, st.Datagrams, st.Decoded, st.Stale, st.Verified, st.Matched, st.Mismatched, st.NoBaseline, len(r.Heard[i]))
		if st.Mismatched != 0 || st.Matched != st.Verified {
			t.Errorf("client %d: %d of %d verified ticks mismatched", i, st.Mismatched, st.Verified)
		}
		// A datagram that arrives is decoded unless it is older than one
		// decoded already (jitter of 50 ms reorders packets 33 ms apart):
		// its state is stale, and it is dropped. None lacks its baseline.
		if st.Decoded+st.Stale != st.Datagrams || float64(st.Decoded) < 0.9*float64(st.Datagrams) ||
			float64(st.Decoded) < 0.75*float64(ps.Snapshots) || st.Verified != st.Decoded {
			t.Errorf("client %d: of %d sent, %d arrived, %d decoded (%d stale), %d verified", i, ps.Snapshots, st.Datagrams, st.Decoded, st.Stale, st.Verified)
		}
		if !slices.Equal(r.Heard[i], r.Sent) {
			t.Errorf("client %d heard tags %v, the server sent %v", i, r.Heard[i], r.Sent)
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
	if !slices.Equal(a.Sent, b.Sent) || !slices.Equal(a.Server.Peers(), b.Server.Peers()) {
		t.Fatalf("two runs differ: tags %v / %v, peers %+v / %+v", a.Sent, b.Sent, a.Server.Peers(), b.Server.Peers())
	}
	for i := range a.Clients {
		if a.Clients[i].Stats() != b.Clients[i].Stats() {
			t.Errorf("client %d: %+v / %+v", i, a.Clients[i].Stats(), b.Clients[i].Stats())
		}
	}
}

// A player leaves and another takes its slot mid-match: the slot's new
// generation is a new entity to everyone, nobody desyncs, and the newcomer
// hears the tags since it joined, the others all of them.
func TestMemoryLeaveAndJoin(t *testing.T) {
	var now time.Duration
	var sent []Tag
	srv, err := NewServer(ServerConfig{Seed: 23, OnTag: func(tg Tag) { sent = append(sent, tg) }})
	if err != nil {
		t.Fatal(err)
	}
	type player struct {
		c     *Client
		bot   *Bot
		heard []Tag
	}
	var players []*player
	join := func(seed uint64) {
		sc, cc, err := memory.NewPair(memory.Config{ServerToClient: lossy, ClientToServer: lossy, Seed: seed,
			Now: func() time.Duration { return now }})
		if err != nil {
			t.Fatal(err)
		}
		p := &player{bot: NewBot(seed)}
		p.c = NewClient(cc, func(tg Tag) { p.heard = append(p.heard, tg) })
		srv.Add(sc)
		players = append(players, p)
	}
	run := func(ticks int) {
		for range ticks {
			now += time.Second / TickRate
			srv.Step()
			for i, p := range players {
				if p.c == nil {
					continue
				}
				if err := p.c.Poll(); err != nil {
					t.Fatalf("player %d: %v", i, err)
				}
				if err := p.c.SendInput(p.bot.Next(p.c)); err != nil {
					t.Fatalf("player %d: %v", i, err)
				}
			}
		}
	}
	for i := range 4 {
		join(uint64(i))
	}
	run(300)
	gone, _, _ := players[1].c.Self()
	players[1].c.Close()
	players[1].c = nil
	run(30)
	join(9)
	run(600)

	late := players[4]
	slot, joined, ok := late.c.Self()
	if !ok || slot != gone || srv.World().players[slot].gen != 2 {
		t.Fatalf("newcomer in slot %d (joined %v), generation %d; want slot %d, generation 2", slot, ok, srv.World().players[slot].gen, gone)
	}
	var since []Tag
	for _, tg := range sent {
		if tg.Tick >= joined {
			since = append(since, tg)
		}
	}
	t.Logf("%d tags, %d since tick %d", len(sent), len(since), joined)
	for i, p := range players {
		if p.c == nil {
			continue
		}
		st := p.c.Stats()
		if st.Mismatched != 0 || st.Decoded < 400 {
			t.Errorf("player %d: %d decoded, %d mismatched", i, st.Decoded, st.Mismatched)
		}
		want := sent
		if p == late {
			want = since
		}
		if !slices.Equal(p.heard, want) {
			t.Errorf("player %d heard %v, want %v", i, p.heard, want)
		}
		if _, snap := p.c.Newest(); snap != nil {
			if r, ok := snap.Find(slot); ok && snap.ID(r).Generation != 2 {
				t.Errorf("player %d sees slot %d at generation %d", i, slot, snap.ID(r).Generation)
			}
		}
	}
}
