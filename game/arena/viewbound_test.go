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
				a.observe(seq, seq-900+tc.late(i), nil)
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
		p.arrivals.observe(uint32(100+i), uint32(50+i), nil)
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

// The floor's delay rises with the first arrivals that call for more and
// holds it while the arrivals of the last ViewHoldSeconds seconds called
// for it: a quiet spell after a jittery one lowers it only after that.
func TestViewDelayHeld(t *testing.T) {
	var a arrivals
	tick := uint32(1000)
	feed := func(seconds int, late func(i int) uint32) {
		for i := range seconds * TickRate {
			tick++
			a.observe(tick+50, tick+late(i), nil)
		}
	}
	steady := uint64((MinViewDelay + FrameAllowance) * 256)
	feed(3, func(int) uint32 { return 0 })
	if d := a.delay(); d != steady {
		t.Fatalf("steady: delay %d/256, want %d", d, steady)
	}
	feed(1, func(i int) uint32 { return uint32(i%2) * 2 }) // a jittery second
	jittery := a.delay()
	if jittery < 700 {
		t.Fatalf("after a jittery second: delay %d/256, want over 700", jittery)
	}
	// The jitter is over, and so is the arrivals' estimate of it within a
	// second or two; the floor holds what they called for.
	feed(ViewHoldSeconds-1, func(int) uint32 { return 0 })
	if d := a.delay(); d != jittery {
		t.Fatalf("%d s after the jitter: delay %d/256, want it held at %d", ViewHoldSeconds-1, d, jittery)
	}
	// The estimate forgets the jitter in about two seconds; the floor
	// follows it down ViewHoldSeconds to ViewHoldSeconds+1 later.
	feed(5, func(int) uint32 { return 0 })
	if d := a.delay(); d != steady {
		t.Fatalf("%d s after the jitter: delay %d/256, want %d again", ViewHoldSeconds+4, d, steady)
	}
	// A gap in the arrivals longer than the hold forgets it all.
	a.observe(tick+51, tick+TickRate*(ViewHoldSeconds+2), nil)
	if d := a.delay(); d != steady {
		t.Fatalf("after a long gap: delay %d/256, want %d", d, steady)
	}
}

// A world that steps late, or skips a tick it overran, sends those ticks'
// snapshots late, which its clients count as jitter: so does the floor,
// though the inputs arrive as evenly as ever against the world's ticks.
func TestViewDelayCountsLateSteps(t *testing.T) {
	w := newBare(t, Config{})
	w.AddPlayer(1)
	i := w.byID[1]
	at := 0.0
	for k := range 10 * TickRate {
		w.Step()
		at++
		if k%15 == 14 {
			at++ // a tick skipped: this step ran a period late
		}
		w.StepTime(at)
		w.ApplyInput(1, uint32(k+1), Input{})
	}
	if d := w.players[i].arrivals.delay(); d < 3*256 {
		t.Fatalf("a tick skipped every half second: delay %d/256, want over 3 ticks", d)
	}
	// The same inputs from a world on time call for the least delay.
	w = newBare(t, Config{})
	w.AddPlayer(1)
	for k := range 10 * TickRate {
		w.Step()
		w.StepTime(float64(k + 1))
		w.ApplyInput(1, uint32(k+1), Input{})
	}
	if d, want := w.players[w.byID[1]].arrivals.delay(), uint64((MinViewDelay+FrameAllowance)*256); d != want {
		t.Fatalf("steps on time: delay %d/256, want %d", d, want)
	}
}
