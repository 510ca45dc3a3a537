package refformat_test

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/sightline-game/sightline/netcode/refformat"
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
)

// fuzzBase is the baseline every fuzzed delta applies to: 20 entities.
func fuzzBase(wide bool) *snapshot.Snapshot {
	s := trafficSchema(64)
	if wide {
		s = wideSchema(64)
	}
	return randomSnapshot(s, 20, rand.New(rand.NewPCG(42, 42)))
}

// checkReencode decodes p and, when that succeeds, checks that encoding the
// result gives p back (decoders accept only canonical packets) and that the
// encoding decodes to the same snapshot.
func checkReencode(t *testing.T, f snapstream.Format, p []byte, base *snapshot.Snapshot) {
	out := snapshot.New(base.Schema())
	h, err := decode(f, p, base, out)
	if err != nil {
		return
	}
	var again []byte
	if h.Full() {
		again = f.AppendFull(nil, h.Tick, out)
	} else {
		again = f.AppendDelta(nil, h.Tick, h.Baseline, base, out)
	}
	if !bytes.Equal(again, p) {
		t.Fatalf("re-encoding differs:\n in % x\nout % x", p, again)
	}
	out2 := snapshot.New(base.Schema())
	if _, err := decode(f, again, base, out2); err != nil || !out2.Equal(out) {
		t.Fatalf("re-encoded packet: err %v, equal %v", err, out2.Equal(out))
	}
}

func seedCorpus(f *testing.F, format snapstream.Format) {
	for _, wide := range []bool{false, true} {
		base := fuzzBase(wide)
		rng := rand.New(rand.NewPCG(7, 7))
		f.Add(format.AppendFull(nil, 1, base), wide)
		for _, share := range []float64{0, 0.1, 0.5, 1} {
			cur := mutate(base, share, rng)
			f.Add(format.AppendFull(nil, 300, cur), wide)
			f.Add(format.AppendDelta(nil, 300, 298, base, cur), wide)
		}
	}
	f.Add([]byte{}, false)
	f.Add([]byte(header(1, 0, 0)), false)
}

func FuzzFullDecode(f *testing.F) {
	seedCorpus(f, refformat.Full{})
	bases := [2]*snapshot.Snapshot{fuzzBase(false), fuzzBase(true)}
	f.Fuzz(func(t *testing.T, p []byte, wide bool) {
		base := bases[0]
		if wide {
			base = bases[1]
		}
		checkReencode(t, refformat.Full{}, p, base)
	})
}

func FuzzByteMaskDecode(f *testing.F) {
	seedCorpus(f, refformat.ByteMask{})
	bases := [2]*snapshot.Snapshot{fuzzBase(false), fuzzBase(true)}
	f.Fuzz(func(t *testing.T, p []byte, wide bool) {
		base := bases[0]
		if wide {
			base = bases[1]
		}
		checkReencode(t, refformat.ByteMask{}, p, base)
	})
}
