package main

import (
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sightline-game/sightline/game/protocol"
)

func arenaDefaults() options {
	return options{Traffic: "arena", Players: 32, Creatures: 300, Seconds: 4, Burst: 1, RTTms: 200, Seed: 1}
}

// A few seconds of the arena with its bots: every client's every decoded
// tick equals the view the server sent it, in every format; the three
// formats carry the same views; and the project's format is the smallest.
func TestArenaRun(t *testing.T) {
	cases := []struct {
		name        string
		loss, burst float64
		players     int
	}{
		{"clean", 0, 1, 32},
		{"bursty loss", 0.1, 4, 32},
		{"a few players", 0.05, 1, 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := arenaDefaults()
			o.Loss, o.Burst, o.Players = c.loss, c.burst, c.players
			r, err := runArena(o)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("full %.0f, zstd %.0f, bytemask %.0f, ours %.0f B/s (%.2fx); view %.1f entities; budget %.0f B/s, %.1f deferred/s; decoded %d, fallbacks %d, lost %d",
				r.FullBps, r.ZstdFullBps, r.BytemaskBps, r.Bps, r.Ratio, r.View.Entities, r.DefaultBudget.Bps, r.DefaultBudget.DeferredPerS, r.DecodedTicks, r.FullFallbacks, r.DownLost)
			if r.Ticks != 120 || r.Hz != protocol.DefaultTickRate || r.History != protocol.History {
				t.Errorf("ticks %d at %g Hz, history %d: want 120 at the game's %d Hz, its history %d", r.Ticks, r.Hz, r.History, protocol.DefaultTickRate, protocol.History)
			}
			if r.MismatchedTicks != 0 || r.DefaultBudget.MismatchedTicks != 0 {
				t.Errorf("%d mismatched ticks (%d under the default budget)", r.MismatchedTicks, r.DefaultBudget.MismatchedTicks)
			}
			if r.DifferingViews != 0 {
				t.Errorf("the formats' views differ on %d client ticks", r.DifferingViews)
			}
			// Each client decodes most ticks: all but the first few (the
			// latency) and what the link lost.
			if want := int(float64(c.players*r.Ticks) * (1 - c.loss) * 0.8); r.DecodedTicks < want || r.DefaultBudget.DecodedTicks < want {
				t.Errorf("decoded %d (%d under the default budget), want at least %d", r.DecodedTicks, r.DefaultBudget.DecodedTicks, want)
			}
			if !(r.Bps > 0 && r.Bps < r.BytemaskBps && r.BytemaskBps < r.FullBps) {
				t.Errorf("ours %.0f, bytemask %.0f, full %.0f B/s: want 0 < ours < bytemask < full", r.Bps, r.BytemaskBps, r.FullBps)
			}
			if r.ZstdFullBps <= 0 || r.ZstdFullBps > 1.1*r.FullBps {
				t.Errorf("zstd of full %.0f B/s, full %.0f", r.ZstdFullBps, r.FullBps)
			}
			if r.Deferred != 0 {
				t.Errorf("the unlimited budget deferred %d entity-ticks", r.Deferred)
			}
			if r.View.Entities < 5 || r.View.Players < 1 || r.View.Creatures < 1 || r.View.EnteringPerS <= 0 {
				t.Errorf("views: %+v", r.View)
			}
			// Where the deltas' bits go: their sections add up to their
			// bytes (runArena checks it), and a match in motion removes,
			// adds and changes entities.
			if z := r.Bits; z.Deltas == 0 || z.Header <= 0 || z.New <= 0 || z.NewEntities <= 0 || z.Residuals <= 0 || z.ChangedEntities <= 0 ||
				math.Abs(z.Header+z.Removed+z.New+z.Changed+z.Masks+z.Residuals+z.Rest-z.Total) > 1e-6*z.Total {
				t.Errorf("bits per delta: %+v", z)
			}
			if r.Match.ShotsPerMin <= 0 {
				t.Errorf("the bots fired no shot: %+v", r.Match)
			}
			if c.loss > 0 && r.DownLost == 0 {
				t.Errorf("loss %g lost nothing", c.loss)
			}
			// A clean 200 ms round trip is 6 ticks; the first second's
			// deltas reach back to the first full view.
			if c.loss == 0 && (r.MeanBaselineAge < 6 || r.MeanBaselineAge > 6.5) {
				t.Errorf("mean baseline age %.2f on a clean 200 ms link at 30 Hz, want 6 to 6.5", r.MeanBaselineAge)
			}
		})
	}
}

// The check is live: a client whose decoded state differs from the view
// the server recorded is counted.
func TestArenaCheckCountsMismatches(t *testing.T) {
	o := arenaDefaults()
	o.Players = 2
	r, err := newArenaRun(o)
	if err != nil {
		t.Fatal(err)
	}
	s := r.lanes[laneOurs].streams[0]
	for tick := uint32(1); tick <= 40; tick++ {
		r.step(tick)
		now := time.Duration(tick) * time.Second / protocol.DefaultTickRate
		for _, l := range r.lanes {
			l.send(tick, now, r.bots)
		}
		// From tick 20 the server's record of client 0's views is wrong.
		if v := s.truth[tick%uint32(len(s.truth))]; tick >= 20 && s.truthTick[tick%uint32(len(s.truth))] == tick && v.Len() > 0 {
			v.Row(0)[protocol.FieldHealth] ^= 1
		}
		r.play(tick)
	}
	if s.mismatched == 0 || s.decoded == 0 {
		t.Errorf("client 0: %d decoded, %d mismatched; want the altered views counted", s.decoded, s.mismatched)
	}
	if other := r.lanes[laneOurs].streams[1]; other.mismatched != 0 {
		t.Errorf("client 1: %d mismatched", other.mismatched)
	}
}

// The model's -speed is its walking speed: faster walkers change more bits.
func TestSpeedChangesModelBytes(t *testing.T) {
	var last result
	for i, speed := range []float64{48, 220} {
		o := defaults()
		o.Speed, o.Hz, o.Seconds = speed, 30, 60
		r, err := run(o)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%g px/s at 30 Hz: ours %.0f B/s, bytemask %.0f B/s, mean age %.2f", speed, r.Bps, r.BytemaskBps, r.MeanBaselineAge)
		if r.Model.WalkSpeedPxS != speed || r.Hz != 30 || r.Ticks != 1800 {
			t.Errorf("ran %g px/s at %g Hz for %d ticks, want %g px/s at 30 Hz for 1800", r.Model.WalkSpeedPxS, r.Hz, r.Ticks, speed)
		}
		if r.MismatchedTicks != 0 {
			t.Errorf("%g px/s: %d mismatched ticks", speed, r.MismatchedTicks)
		}
		if r.MeanBaselineAge != 6 {
			t.Errorf("%g px/s: mean baseline age %.2f at 30 Hz with 200 ms RTT, want 6", speed, r.MeanBaselineAge)
		}
		if i > 0 && r.Bps < 1.05*last.Bps {
			t.Errorf("ours at %g px/s sends %.0f B/s, at %g px/s %.0f: want more for faster walkers", speed, r.Bps, last.Model.WalkSpeedPxS, last.Bps)
		}
		last = r
	}
}

// An arena run with -replay writes its match as a replay would keep it:
// every tick plays back as its hash says, the bytes it counts are those of
// the file -record writes (whole fragments, no parts), and the whole world
// costs less than the players' views did.
func TestArenaReplay(t *testing.T) {
	file := filepath.Join(t.TempDir(), "match.slreplay")
	res, err := runArena(options{Traffic: "arena", Players: 8, Creatures: 60, Seconds: 6, RTTms: 100, Seed: 3, Replay: true, Record: file})
	if err != nil {
		t.Fatal(err)
	}
	rp := res.Replay
	if rp == nil || rp.Ticks != 180 || rp.Mismatched != 0 || rp.Keyframes != 2 || rp.Fragments != 2 ||
		rp.BytesPerMin <= 0 || rp.BytesPerMin >= rp.PlayersPerMin {
		t.Fatalf("replay %+v", rp)
	}
	if fi, err := os.Stat(file); err != nil || fi.Size() != rp.Bytes {
		t.Fatalf("the replay file: %v, %v; counted %d bytes", fi.Size(), err, rp.Bytes)
	}
}
