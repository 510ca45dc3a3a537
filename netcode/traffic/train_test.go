package traffic

import (
	"fmt"
	"testing"

	"github.com/sightline-game/sightline/netcode/delta"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

func tallyRun(t *testing.T, s *snapshot.Schema, moving float64, seed uint64, ticks int, gaps []uint32, tl *delta.Tally) {
	cfg := DefaultConfig()
	cfg.Moving, cfg.Seed = moving, seed
	w, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ring := make([]*snapshot.Snapshot, 8)
	for i := range ring {
		ring[i] = snapshot.New(s)
	}
	for tick := 1; tick <= ticks; tick++ {
		w.Step()
		w.Fill(ring[tick%8])
		g := gaps[tick%len(gaps)]
		if tick > 8 {
			tl.Add(ring[(tick-int(g))%8], ring[tick%8], g)
		}
	}
}

func TestExperiment(t *testing.T) {
	s, _ := DefaultConfig().Schema()
	s.Predictor = newPredictor(DefaultConfig())
	tl, _ := delta.NewTally(s)
	for _, m := range []float64{0.05, 0.15, 0.15, 0.15, 0.3, 1} {
		tallyRun(t, s, m, 7, 20000, []uint32{1, 2, 2, 2, 3, 4}, tl)
	}
	for f := range s.Fields {
		l, err := tl.Lengths(f, 12)
		fmt.Printf("%s: %#v\n", s.Fields[f].Name, l)
		_ = err
	}
}
