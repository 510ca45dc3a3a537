package traffic_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/traffic"
)

func newWorld(t testing.TB, cfg traffic.Config) *traffic.World {
	t.Helper()
	w, err := traffic.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func TestSchema(t *testing.T) {
	s, err := traffic.DefaultConfig().Schema()
	if err != nil {
		t.Fatal(err)
	}
	var widths []uint8
	var names []string
	for _, f := range s.Fields {
		widths = append(widths, f.Bits)
		names = append(names, f.Name)
	}
	if !slices.Equal(widths, []uint8{16, 16, 10, 8}) || !slices.Equal(names, []string{"x", "y", "heading", "state"}) {
		t.Errorf("fields %v %v, want x y heading state of 16 16 10 8 bits", names, widths)
	}
	if s.IndexBits != 12 || s.GenerationBits != 4 || s.MaxEntities != 100 {
		t.Errorf("IndexBits %d GenerationBits %d MaxEntities %d, want 12 4 100", s.IndexBits, s.GenerationBits, s.MaxEntities)
	}
}

func TestConfig(t *testing.T) {
	cfg := traffic.DefaultConfig()
	a, s, err := cfg.Chances()
	if err != nil || s != traffic.DefaultStopChance || math.Abs(a-0.22*0.15/0.85) > 1e-12 {
		t.Errorf("default chances a=%v s=%v err=%v", a, s, err)
	}
	// Stationary share a/(a+s) = p.
	if p := a / (a + s); math.Abs(p-0.15) > 1e-12 {
		t.Errorf("stationary share %v, want 0.15", p)
	}
	cfg.Start = 0.1
	if a, s, _ := cfg.Chances(); a != 0.1 || math.Abs(s-0.1*0.85/0.15) > 1e-12 {
		t.Errorf("with Start 0.1: a=%v s=%v", a, s)
	}
	cfg = traffic.DefaultConfig()
	cfg.Moving = 1
	if a, s, _ := cfg.Chances(); a != 1 || s != 0 {
		t.Errorf("Moving 1: a=%v s=%v, want 1 0", a, s)
	}
	cfg.Moving = 0.9 // a = 0.22*9 > 1: clamped, walks shorten
	if a, s, _ := cfg.Chances(); a != 1 || math.Abs(s-0.1/0.9) > 1e-12 {
		t.Errorf("Moving 0.9: a=%v s=%v, want 1 %v", a, s, 0.1/0.9)
	}
	bad := []func(*traffic.Config){
		func(c *traffic.Config) { c.Entities = 0 },
		func(c *traffic.Config) { c.Entities = traffic.MaxEntities + 1 },
		func(c *traffic.Config) { c.TickRate = 0 },
		func(c *traffic.Config) { c.Moving = 1.5 },
		func(c *traffic.Config) { c.Moving = math.NaN() },
		func(c *traffic.Config) { c.Start = -1 },
		func(c *traffic.Config) { c.Moving, c.Start = 0.1, 0.5 }, // s would be 4.5
		func(c *traffic.Config) { c.StopChance = 0 },
		func(c *traffic.Config) { c.WorldSize = 0 },
		func(c *traffic.Config) { c.PosPrecision = 0 },
		func(c *traffic.Config) { c.HeadingBits = 0 },
		func(c *traffic.Config) { c.WalkSpeed = -1 },
		func(c *traffic.Config) { c.TurnRate = math.Inf(1) },
		func(c *traffic.Config) { c.TurnChance = 2 },
	}
	for i, mod := range bad {
		cfg := traffic.DefaultConfig()
		mod(&cfg)
		if _, err := traffic.New(cfg); !errors.Is(err, traffic.ErrConfig) {
			t.Errorf("bad config %d: err %v, want ErrConfig", i, err)
		}
	}
}

func TestDeterminism(t *testing.T) {
	cfg := traffic.DefaultConfig()
	cfg.Moving = 0.3
	w1, w2 := newWorld(t, cfg), newWorld(t, cfg)
	cfg.Seed++
	w3 := newWorld(t, cfg)
	s1, s2, s3 := snapshot.New(w1.Schema()), snapshot.New(w1.Schema()), snapshot.New(w1.Schema())
	differ := 0
	for range 500 {
		w1.Step()
		w2.Step()
		w3.Step()
		w1.Fill(s1)
		w2.Fill(s2)
		w3.Fill(s3)
		if !s1.Equal(s2) {
			t.Fatalf("tick %d: same seed, different snapshots", w1.Tick())
		}
		if !s1.Equal(s3) {
			differ++
		}
	}
	if w1.Tick() != 500 {
		t.Errorf("Tick() = %d after 500 steps", w1.Tick())
	}
	if differ != 500 {
		t.Errorf("another seed gave the same snapshot on %d of 500 ticks", 500-differ)
	}
}

// TestChangedShare checks c(k) = 1-(1-p)(1-a)^(k-1) against the measured
// share of entities whose quantized state differs from k ticks earlier.
func TestChangedShare(t *testing.T) {
	ages := []int{1, 2, 4, 8, 16}
	for _, p := range []float64{0.15, 0.5} {
		cfg := traffic.DefaultConfig()
		cfg.Moving = p
		w := newWorld(t, cfg)
		ring := make([]*snapshot.Snapshot, 17)
		for i := range ring {
			ring[i] = snapshot.New(w.Schema())
		}
		w.Fill(ring[0])
		sums := make([]float64, len(ages))
		samples := 0
		for range 3000 {
			w.Step()
			t := int(w.Tick())
			cur := ring[t%len(ring)]
			w.Fill(cur)
			if t < 16 {
				continue
			}
			samples++
			for j, k := range ages {
				sums[j] += float64(cur.Diff(ring[(t-k)%len(ring)])) / float64(w.Len())
			}
		}
		for j, k := range ages {
			got := sums[j] / float64(samples)
			want := traffic.ChangedShare(p, w.StartChance(), k)
			t.Logf("p=%.2f k=%2d: measured %.3f, c(k) %.3f", p, k, got, want)
			if math.Abs(got-want) > 0.05 {
				t.Errorf("p=%.2f k=%d: measured changed share %.3f, formula %.3f", p, k, got, want)
			}
		}
	}
}

// TestMovingShare checks the share of entities moving per tick and the
// chain's transition probabilities.
func TestMovingShare(t *testing.T) {
	for _, p := range []float64{0, 0.05, 0.15, 0.6, 0.9, 1} {
		cfg := traffic.DefaultConfig()
		cfg.Moving = p
		w := newWorld(t, cfg)
		a, s := w.StartChance(), w.StopChance()
		n := w.Len()
		prev := make([]bool, n)
		moved, ticks := 0, 3000
		var fromMoving, keptMoving, fromIdle, started int
		for tick := range ticks {
			w.Step()
			moved += w.MovedCount()
			for i := range n {
				m := w.Moved(i)
				if tick > 0 {
					if prev[i] {
						fromMoving++
						if m {
							keptMoving++
						}
					} else {
						fromIdle++
						if m {
							started++
						}
					}
				}
				prev[i] = m
			}
		}
		share := float64(moved) / float64(ticks*n)
		t.Logf("p=%.2f: moving share %.4f (a=%.4f s=%.4f)", p, share, a, s)
		if math.Abs(share-p) > 0.02 {
			t.Errorf("p=%v: measured moving share %.4f", p, share)
		}
		if fromMoving > 1000 {
			if got := float64(keptMoving) / float64(fromMoving); math.Abs(got-(1-s)) > 0.02 {
				t.Errorf("p=%v: P(move | moved) = %.3f, want 1-s = %.3f", p, got, 1-s)
			}
		}
		if fromIdle > 1000 {
			if got := float64(started) / float64(fromIdle); math.Abs(got-a) > 0.02 {
				t.Errorf("p=%v: P(move | idle) = %.3f, want a = %.3f", p, got, a)
			}
		}
	}
}

// TestMotion checks that idle entities change nothing, moving ones move, the
// state byte follows the walk, and everybody stays in the world.
func TestMotion(t *testing.T) {
	cfg := traffic.DefaultConfig()
	cfg.Moving = 0.5
	cfg.WorldSize = 256 // small, fast world: many bounces
	cfg.PosPrecision = 1.0 / 128
	cfg.WalkSpeed = 400
	w := newWorld(t, cfg)
	prev, cur := snapshot.New(w.Schema()), snapshot.New(w.Schema())
	w.Fill(prev)
	walking := make([]bool, w.Len())
	for i := range walking {
		walking[i] = w.Walking(i)
	}
	top := uint32(256 * 128)
	for range 2000 {
		w.Step()
		w.Fill(cur)
		for i := range w.Len() {
			x, y := w.Position(i)
			h := w.Heading(i)
			if !(x >= 0 && x <= 256 && y >= 0 && y <= 256) || !(h >= 0 && h < 2*math.Pi) {
				t.Fatalf("tick %d entity %d at (%v, %v) heading %v", w.Tick(), i, x, y, h)
			}
			row, old := cur.Row(i), prev.Row(i)
			if row[traffic.FieldX] > top || row[traffic.FieldY] > top {
				t.Fatalf("tick %d entity %d quantized to (%d, %d)", w.Tick(), i, row[0], row[1])
			}
			if walking[i] && !w.Moved(i) {
				t.Fatalf("tick %d entity %d was walking but did not move", w.Tick(), i)
			}
			if !w.Moved(i) && !slices.Equal(row, old) {
				t.Fatalf("tick %d entity %d did not move but changed: %v -> %v", w.Tick(), i, old, row)
			}
			if w.Moved(i) && row[traffic.FieldX] == old[traffic.FieldX] && row[traffic.FieldY] == old[traffic.FieldY] {
				t.Fatalf("tick %d entity %d moved but kept its position", w.Tick(), i)
			}
			want := uint32(traffic.StateIdle)
			if w.Walking(i) {
				want = traffic.StateWalking
			}
			if row[traffic.FieldState] != want {
				t.Fatalf("tick %d entity %d state %d, want %d", w.Tick(), i, row[traffic.FieldState], want)
			}
			if id := cur.ID(i); id != (snapshot.EntityID{Index: uint16(i)}) {
				t.Fatalf("entity %d has id %v", i, id)
			}
			walking[i] = w.Walking(i)
		}
		prev, cur = cur, prev
	}
}

// TestTurns checks the turn chance and bound on an open field (no bounces).
func TestTurns(t *testing.T) {
	cfg := traffic.DefaultConfig()
	cfg.Moving = 1
	cfg.WorldSize = 1 << 20
	cfg.PosPrecision = 32
	w := newWorld(t, cfg)
	maxTurn := cfg.TurnRate / cfg.TickRate * math.Pi / 180
	before := make([]float64, w.Len())
	turns, moves := 0, 0
	for range 500 {
		for i := range before {
			before[i] = w.Heading(i)
		}
		w.Step()
		for i := range before {
			if x, y := w.Position(i); min(x, y, cfg.WorldSize-x, cfg.WorldSize-y) < 2*cfg.WalkSpeed/cfg.TickRate {
				continue // may have bounced
			}
			d := math.Remainder(w.Heading(i)-before[i], 2*math.Pi)
			if math.Abs(d) > maxTurn+1e-9 {
				t.Fatalf("entity %d turned %v rad, max %v", i, d, maxTurn)
			}
			if d != 0 {
				turns++
			}
			moves++
		}
	}
	if got := float64(turns) / float64(moves); math.Abs(got-cfg.TurnChance) > 0.02 {
		t.Errorf("turned on %.3f of moving ticks, want %.3f", got, cfg.TurnChance)
	}
}

func TestStepFillAllocs(t *testing.T) {
	w := newWorld(t, traffic.DefaultConfig())
	s := snapshot.New(w.Schema())
	if a := testing.AllocsPerRun(200, func() { w.Step(); w.Fill(s) }); a != 0 {
		t.Errorf("Step+Fill: %v allocs per run, want 0", a)
	}
}

func TestFillWrongSchemaPanics(t *testing.T) {
	w := newWorld(t, traffic.DefaultConfig())
	other := snapshot.New(snapshot.MustSchema(10, 0, 100, snapshot.Field{Name: "x", Bits: 16}))
	defer func() {
		if recover() == nil {
			t.Error("Fill into another schema did not panic")
		}
	}()
	w.Fill(other)
}

func BenchmarkStepFill(b *testing.B) {
	w := newWorld(b, traffic.DefaultConfig())
	s := snapshot.New(w.Schema())
	b.ReportAllocs()
	for b.Loop() {
		w.Step()
		w.Fill(s)
	}
}
