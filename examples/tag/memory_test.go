package tag

import (
	"slices"
	"testing"
	"time"

	"github.com/sightline-game/sightline/netcode/linksim"
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
