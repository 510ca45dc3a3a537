package traffic

import (
	"testing"

	"github.com/sightline-game/sightline/netcode/delta"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// Where the bits of the model's deltas go, at 15 % moving with a baseline
// two ticks old, with and without the predictor (go test -v prints it).
func TestWhereTheBitsGo(t *testing.T) {
	for _, predict := range []bool{true, false} {
		cfg := DefaultConfig()
		w, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		s := w.Schema()
		if !predict {
			c := *s
			c.Predictor = nil
			s = &c
		}
		codec := delta.MustCodec(s)
		ring := [3]*snapshot.Snapshot{snapshot.New(s), snapshot.New(s), snapshot.New(s)}
		var sum delta.Sizes
		var bytes, packets int
		for tick := 1; tick <= 3000; tick++ {
			w.Step()
			w.Fill(ring[tick%3])
			if tick < 3 {
				continue
			}
			p := codec.AppendDelta(nil, uint32(tick), uint32(tick-2), ring[(tick-2)%3], ring[tick%3])
			z := codec.LastSizes()
			if got := z.Bits(); got != 8*len(p) {
				t.Fatalf("tick %d: sections add up to %d bits in a %d-byte packet", tick, got, len(p))
			}
			sum.Header += z.Header
			sum.Changed += z.Changed
			sum.Coding += z.Coding
			sum.Masks += z.Masks
			sum.Residuals += z.Residuals
			sum.Padding += z.Padding
			sum.Check += z.Check
			bytes += len(p)
			packets++
		}
		per := func(n int) float64 { return float64(n) / float64(packets) }
		t.Logf("predictor %v: %.1f B/packet; bits: header %.1f, changed set %.1f, coding %.1f, masks %.1f, residuals %.1f, padding %.1f, check %.1f",
			predict, per(bytes), per(sum.Header), per(sum.Changed), per(sum.Coding), per(sum.Masks), per(sum.Residuals), per(sum.Padding), per(sum.Check))
		if sum.Residuals < sum.Masks || sum.Residuals < sum.Changed {
			t.Errorf("residuals (%d bits) should be the largest part", sum.Residuals)
		}
	}
}
