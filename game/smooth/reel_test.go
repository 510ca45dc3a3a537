package smooth

import (
	"math"
	"testing"
	"time"

	"github.com/sightline-game/sightline/netcode/snapshot"
)

// A reel holds the last ReelTicks ticks pushed: sampled at a time between
// two of them, each entity is where it was then (within the 1/8 px
// quantization); a tick that fell out of the window is not held; and the
// own player's drawn position comes back for the tick whose input it was
// drawn for.
func TestReelHoldsTheLastTicks(t *testing.T) {
	w := newWorld(40, 3, 10*time.Second)
	r := NewReel()
	for tick := uint32(100); tick < 300; tick++ {
		r.Push(tick, w.at(tick))
		seq := tick + 5000 // the input the server applied in tick
		r.NoteSelf(seq, 10, 20)
		r.NoteSelf(seq, float64(tick), 2*float64(tick)) // the last frame's stands
		r.Applied(tick, seq)
	}
	if n, ok := r.Newest(); !ok || n != 299 {
		t.Fatalf("newest %d %v", n, ok)
	}
	if r.Holds(299-ReelTicks) || !r.Holds(300-ReelTicks) {
		t.Fatalf("holds %d: %v, %d: %v; want the last %d ticks", 299-ReelTicks, r.Holds(299-ReelTicks), 300-ReelTicks, r.Holds(300-ReelTicks), ReelTicks)
	}
	if o, ok := r.Oldest(250); !ok || o != 300-ReelTicks {
		t.Fatalf("oldest of the run to 250: %d %v", o, ok)
	}
	const at = 230.25
	n := 0
	if !r.SampleAt(at, func(id snapshot.EntityID, e Entity) {
		m := w.movers[id.Index]
		if d := math.Hypot(e.X-(m.x0+m.vx*at), e.Y-(m.y0+m.vy*at)); d > 0.2 {
			t.Fatalf("entity %d drawn %.3f px from where it was at %.2f", id.Index, d, at)
		}
		n++
	}) || n != len(w.movers) {
		t.Fatalf("sampled %d entities, want %d", n, len(w.movers))
	}
	if r.SampleAt(100, func(snapshot.EntityID, Entity) {}) {
		t.Fatal("sampled a tick that left the window")
	}
	if x, y, ok := r.DrawnSelf(250); !ok || x != 250 || y != 500 {
		t.Fatalf("drawn self at 250: %v %v %v", x, y, ok)
	}
	// An input no frame was drawn for (two sent between frames) takes the
	// next input's frame.
	r.Push(300, w.at(300))
	r.Applied(300, 9000)
	r.NoteSelf(9001, 7, 8)
	if x, y, ok := r.DrawnSelf(300); !ok || x != 7 || y != 8 {
		t.Fatalf("drawn self for an input without a frame: %v %v %v, want the next input's", x, y, ok)
	}
	r.Reset()
	if r.Holds(299) {
		t.Fatal("held after Reset")
	}
	r.Push(0, nil) // ignored, no panic
}

// A reel allocates nothing once made: every tick's storage is there from
// NewReel for a view's worth of entities.
func TestReelAllocatesNothing(t *testing.T) {
	w := newWorld(150, 4, 10*time.Second)
	r := NewReel()
	fn := func(snapshot.EntityID, Entity) {}
	tick := uint32(0)
	step := func() {
		r.Push(tick, w.at(tick))
		r.NoteSelf(tick, 1, 2)
		r.Applied(tick, tick)
		r.SampleAt(float64(tick)-7.5, fn)
		r.DrawnSelf(tick)
		tick++
	}
	if a := testing.AllocsPerRun(3*ReelTicks, step); a != 0 {
		t.Fatalf("%v allocations a tick, want 0", a)
	}
}
