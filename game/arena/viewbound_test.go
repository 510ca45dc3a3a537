package arena

import "testing"

// The delay a client's view may trail its newest tick grows with how
// unevenly its inputs arrive, and stays within MinViewDelay and
// MaxViewDelay.
func TestArrivalsDelay(t *testing.T) {
	for _, tc := range []struct {
		name     string
		late     func(i int) uint32 // ticks late input i arrives
		min, max uint64             // the delay, 256ths of a tick
	}{
		{"steady", func(int) uint32 { return 0 }, 320, 320},
		{"one in four a tick late", func(i int) uint32 { return uint32(i % 4 / 3) }, 364, 764},
		// Inputs about a tick's boundary: the tick of arrival alternates,
		// the link is steady.
		{"at a tick's boundary", func(i int) uint32 { return uint32(i % 2) }, 320, 384},
		{"every other two ticks late", func(i int) uint32 { return uint32(i%2) * 2 }, 764, 1364},
		{"wild", func(i int) uint32 { return uint32(i * 7919 % 8) }, 1264, (MaxViewDelay + FrameAllowance) * 256},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var a arrivals
			for i := range 600 {
				seq := uint32(1000 + i)
				a.observe(seq, seq-900+tc.late(i))
			}
			if d := a.delay(); d < tc.min || d > tc.max {
				t.Fatalf("delay %d/256 ticks, want %d to %d", d, tc.min, tc.max)
			}
		})
	}
}

// A player's floor is its acknowledged tick less the delay (with the
// frames' allowance); with no acknowledged tick there is none.
func TestViewFloor(t *testing.T) {
	p := &player{}
	for i := range 100 {
		p.arrivals.observe(uint32(100+i), uint32(50+i))
	}
	if got, want := p.viewFloor(500), uint64(500*256-320); got != want {
		t.Fatalf("floor %d, want %d", got, want)
	}
	if got := p.viewFloor(0); got != 0 {
		t.Fatalf("floor with nothing acknowledged %d, want 0", got)
	}
	if got := p.viewFloor(1); got != 0 {
		t.Fatalf("floor of tick 1 %d, want 0 (before the first tick)", got)
	}
	if v := viewAt(500*256 + 64); v != (View{From: 500, Gap: 1, Frac: 64}) {
		t.Fatalf("viewAt: %+v", v)
	}
	if v := viewAt(500 * 256); v != (View{From: 500}) {
		t.Fatalf("viewAt: %+v", v)
	}
}
