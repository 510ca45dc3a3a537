//go:build !js

package webrtc

import (
	"testing"
	"time"
)

// A socket whose buffer a round's traffic fills only a little is drained
// only in rounds; a flood has it drained often enough that the buffer is
// about a third full at each drain; the pace holds drainHold after the
// flood, then falls back to the rounds within a few hundred milliseconds
// (some ten drains).
func TestDrainPace(t *testing.T) {
	const rcvbuf = 425984 // a stock Linux host's
	p := drainPace{interval: 50 * time.Millisecond}
	now := time.Unix(1000, 0)
	// drainAt drains at the pace's next time, or after round if none, the
	// buffer having filled at rate bytes a second since the last.
	drainAt := func(rate float64, round time.Duration) time.Duration {
		next := p.next()
		if next.IsZero() || next.Sub(p.last) > round {
			next = p.last.Add(round)
		}
		gap := next.Sub(p.last)
		now = next
		p.drained(now, min(int(rate*gap.Seconds()), rcvbuf), rcvbuf)
		return gap
	}
	p.drained(now, 0, rcvbuf)
	// A game's traffic: 48 players, each an input twice and an
	// acknowledgement a 33 ms tick (about 2.5 KiB as the kernel counts
	// them), in a round a quarter tick before each tick and one at it.
	tick := time.Second / 30
	for i := range 100 {
		round := tick / 4
		if i%2 == 1 {
			round = tick - tick/4
		}
		if gap := drainAt(48*2500*30, round); gap != round {
			t.Fatalf("a game's traffic drained %v after the last round, want only in rounds (every %v)", gap, p.every)
		}
	}
	// 100,000 datagrams of 100 bytes a second (832 bytes each as the
	// kernel counts them).
	flood := 100000 * 832.0
	var gap time.Duration
	for range 200 {
		gap = drainAt(flood, 16*time.Millisecond)
	}
	if fill := flood * gap.Seconds() / rcvbuf; gap < minDrainInterval || fill > 0.4 || fill < 0.25 {
		t.Fatalf("a flood drained every %v (the buffer %.2f full), want about a third full", gap, fill)
	}
	// The flood pauses, and the pace holds.
	var quiet time.Duration
	for quiet < drainHold-100*time.Millisecond {
		quiet += drainAt(0, 16*time.Millisecond)
	}
	if p.every != gap {
		t.Fatalf("%v after the flood, drains every %v, want %v still", quiet, p.every, gap)
	}
	// The flood ends.
	for quiet < 2*drainHold && !p.next().IsZero() {
		quiet += drainAt(0, 16*time.Millisecond)
	}
	if !p.next().IsZero() || quiet > drainHold+300*time.Millisecond {
		t.Fatalf("%v after the flood, drains still every %v", quiet, p.every)
	}
	// A flood too fast for minDrainInterval is drained at it.
	for range 20 {
		gap = drainAt(100*flood, 16*time.Millisecond)
	}
	if gap != minDrainInterval {
		t.Fatalf("a flood of 10M datagrams a second drained every %v, want %v", gap, minDrainInterval)
	}
	// Without the kernel's figures, nothing changes.
	before := p
	p.drained(now.Add(time.Millisecond), -1, -1)
	if p.every != before.every || p.rate != before.rate {
		t.Fatal("a drain without figures moved the pace")
	}
}
