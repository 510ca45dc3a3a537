package protocol_test

import (
	"math/rand/v2"
	"testing"

	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/delta"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// A delta cut short, or cut and with a bit flipped, must almost never
// decode: a client that took one would hold a wrong state and acknowledge
// it, and the next deltas would build on it. Entropy-coded deltas carry
// little redundancy, so the decoder checks what it can (every codeword
// used, every set in its universe, a masked field differing from its
// baseline, zero padding); over a bot match's deltas at most one corrupt
// packet in 10000 gets through.
func TestCorruptDeltasRefused(t *testing.T) {
	s := protocol.Schema()
	c := delta.MustCodec(s)
	var ring [8]*snapshot.Snapshot
	for i := range ring {
		ring[i] = snapshot.New(s)
	}
	r := rand.New(rand.NewPCG(1, 2))
	out := snapshot.New(s)
	tried, taken := 0, 0
	recordArena(t, 3, 8, 600, func(tick int, cur *snapshot.Snapshot) {
		ring[tick%8].CopyFrom(cur)
		if tick < 10 {
			return
		}
		base := ring[(tick-3)%8]
		p := c.AppendDelta(nil, uint32(tick), uint32(tick-3), base, cur)
		for range 50 {
			q := append([]byte(nil), p[:r.IntN(len(p))]...)
			if len(q) > 0 && r.IntN(2) == 0 {
				q[r.IntN(len(q))] ^= 1 << r.IntN(8)
			}
			h, err := c.ReadHeader(q, uint32(tick-1))
			if err != nil || h.Full() || h.Baseline != uint32(tick-3) {
				continue
			}
			tried++
			if c.Decode(q, h, base, out) == nil {
				taken++
			}
		}
	})
	t.Logf("%d corrupt deltas decoded of %d", taken, tried)
	if tried < 20000 || taken*10000 > tried {
		t.Fatalf("%d corrupt deltas decoded of %d", taken, tried)
	}
}
