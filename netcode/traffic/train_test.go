package traffic

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/sightline-game/sightline/netcode/bitpack"
	"github.com/sightline-game/sightline/netcode/delta/train"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

var retrain = flag.Bool("retrain", false, "print the residual and mask codes trained afresh on the model's traffic")

// trainingTally counts what deltas of the model's traffic code with schema
// s: runs at 5 to 100 % moving (15 % weighted most, as the benchmarks
// run), against baselines 1 to 4 ticks old (2 most often).
func trainingTally(t *testing.T, s *snapshot.Schema, seed uint64) *train.Tally {
	t.Helper()
	tl, err := train.NewTally(s)
	if err != nil {
		t.Fatal(err)
	}
	gaps := []int{1, 2, 2, 2, 3, 4}
	for _, moving := range []float64{0.05, 0.15, 0.15, 0.15, 0.3, 1} {
		cfg := DefaultConfig()
		cfg.Moving, cfg.Seed = moving, seed
		seed++
		w, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		var ring [8]*snapshot.Snapshot
		for i := range ring {
			ring[i] = snapshot.New(s)
		}
		for tick := 1; tick <= 20000; tick++ {
			w.Step()
			w.Fill(ring[tick%8])
			if g := gaps[tick%len(gaps)]; tick > 8 {
				tl.Add(ring[(tick-g)%8], ring[tick%8], uint32(g))
			}
		}
	}
	return tl
}

// The shipped codes are as good as codes trained afresh: on traffic of
// other seeds, each costs at most 1 % more than the code trained on that
// very traffic. go test -run TrainedCodes -retrain prints fresh tables.
func TestTrainedCodes(t *testing.T) {
	s, err := DefaultConfig().Schema()
	if err != nil {
		t.Fatal(err)
	}
	if *retrain {
		tl := trainingTally(t, s, 7)
		var b strings.Builder
		for f, fd := range s.Fields {
			l, err := tl.Lengths(f, bitpack.MaxCodeLen)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "%s: %v\n", fd.Name, l)
		}
		l, err := tl.MaskLengths(bitpack.MaxCodeLen)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "masks: %v\n", l)
		t.Log("\n" + b.String())
	}
	fresh := trainingTally(t, s, 1001)
	for f, fd := range s.Fields {
		l, err := fresh.Lengths(f, bitpack.MaxCodeLen)
		if err != nil {
			t.Fatal(err)
		}
		shipped, best := fresh.Bits(f, fd.Code), fresh.Bits(f, bitpack.MustCode(l...))
		t.Logf("%s: shipped code %.0f bits, fresh code %.0f, entropy %.0f", fd.Name, shipped, best, fresh.Bits(f, nil))
		if shipped > 1.01*best {
			t.Errorf("%s: the shipped code costs %.0f bits, a fresh one %.0f: retrain", fd.Name, shipped, best)
		}
	}
	l, err := fresh.MaskLengths(bitpack.MaxCodeLen)
	if err != nil {
		t.Fatal(err)
	}
	shipped, best := fresh.MaskBits(s.MaskCode), fresh.MaskBits(bitpack.MustCode(l...))
	t.Logf("masks: shipped code %.0f bits, fresh code %.0f, entropy %.0f", shipped, best, fresh.MaskBits(nil))
	if shipped > 1.01*best {
		t.Errorf("masks: the shipped code costs %.0f bits, a fresh one %.0f: retrain", shipped, best)
	}
}
