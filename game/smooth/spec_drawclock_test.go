package smooth

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// lawDraw is the reference client's drawing clock as PROTOCOL.md §5
// writes it ("The reference client's drawing clock"), written from the
// text, not from Interpolator.
type lawDraw struct {
	// The tick clock.
	started   bool
	base      time.Time
	off, l    float64
	c         int
	held      []uint32 // ticks taken in, at most the last 32
	newest    uint32
	haveTicks bool
	// The render time.
	r    float64
	rAt  time.Time
	rOK  bool
	view arena.View
}

func (d *lawDraw) takeIn(n uint32, a time.Time) {
	if !d.haveTicks || n > d.newest {
		d.newest, d.haveTicks = n, true
	}
	d.held = append(d.held, n)
	kept := d.held[:0]
	for _, t := range d.held {
		if d.newest-t < 32 {
			kept = append(kept, t)
		}
	}
	d.held = kept

	if !d.started {
		d.base, d.off, d.c, d.started = a, float64(n), 1, true
		return
	}
	dd := float64(n) - a.Sub(d.base).Seconds()*30 - d.off
	if math.Abs(dd) > 8 {
		d.base, d.off, d.c = a, float64(n), 1
		return
	}
	d.c++
	d.off = d.off + max(1/float64(d.c), 1.0/64)*dd
	late := max(-dd, 0)
	d.l = d.l + max(1/float64(d.c), 1.0/32)*(late*late-d.l)
}

func (d *lawDraw) delay() float64 { return min(max(1+2*math.Sqrt(2*d.l), 1), 6) }

// frame moves the render time at the frame's time t and returns the view
// it draws.
func (d *lawDraw) frame(t time.Time) {
	target := d.off + t.Sub(d.base).Seconds()*30 - d.delay()
	if !d.rOK || math.Abs(target-d.r) > 8 {
		d.r, d.rAt, d.rOK = target, t, true
	} else {
		e := max(t.Sub(d.rAt).Seconds()*30, 0)
		adv := e + min(max(target-(d.r+e), -e/10), e/10)
		if h := float64(d.newest) + 2 - d.r; h < 1 {
			adv *= max(h, 0)
		}
		d.r += max(adv, 0)
		d.rAt = t
	}
	// A: the newest held tick at or before r; B: the oldest after it.
	var a, b, oldest uint32
	var haveA, haveB bool
	for i, h := range d.held {
		if float64(h) <= d.r && (!haveA || h > a) {
			a, haveA = h, true
		}
		if float64(h) > d.r && (!haveB || h < b) {
			b, haveB = h, true
		}
		if i == 0 || h < oldest {
			oldest = h
		}
	}
	switch {
	case haveA && haveB:
		alpha := (d.r - float64(a)) / float64(b-a)
		f := math.Round(alpha * 256) // a half away from zero
		switch {
		case b-a > 255 && alpha >= 0.5, f >= 256:
			d.view = arena.View{From: b}
		case b-a > 255, f <= 0:
			d.view = arena.View{From: a}
		default:
			d.view = arena.View{From: a, Gap: uint8(b - a), Frac: uint8(f)}
		}
	case haveB: // nothing held at or before r
		d.view = arena.View{From: oldest}
	default: // one tick held, or past the newest
		d.view = arena.View{From: d.newest}
	}
}

// TestSpecDrawingClock holds PROTOCOL.md §5's drawing clock to the
// reference client's Interpolator: the same ticks taken in at the same
// times, over a link with jitter, loss, reordering and a server stall,
// give at every frame the same render time, delay and view.
func TestSpecDrawingClock(t *testing.T) {
	w := newWorld(3, 1, 100*time.Second)
	rng := rand.New(rand.NewPCG(5, 6))
	arr := deliver(rng, 1, 1500, 0.05, 60*time.Millisecond, 25*time.Millisecond)
	// A server stall of 2 s after tick 900: its later ticks come late.
	for i := range arr {
		if arr[i].tick > 900 {
			arr[i].at = arr[i].at.Add(2 * time.Second)
		}
	}
	ip, law := NewInterpolator(arena.TickRate), &lawDraw{}
	decoded := map[uint32]bool{}
	var newestDecoded, pushed uint32
	havePushed := false
	update := epoch
	frame := epoch.Add(3 * time.Millisecond)
	next, frames, between, alone := 0, 0, 0, 0
	for update.Before(arr[len(arr)-1].at.Add(time.Second)) {
		if update.Before(frame) {
			// An update: decode what came (only ticks newer than the
			// newest decoded), then take in every decoded tick newer
			// than the newest taken in, in order; the first time only
			// the newest.
			for next < len(arr) && !arr[next].at.After(update) {
				if arr[next].tick > newestDecoded {
					newestDecoded = arr[next].tick
					decoded[arr[next].tick] = true
				}
				next++
			}
			if newestDecoded > 0 && (!havePushed || newestDecoded > pushed) {
				from := newestDecoded
				if havePushed {
					from = max(pushed+1, newestDecoded-31)
				}
				for tk := from; tk <= newestDecoded; tk++ {
					if decoded[tk] {
						ip.Push(tk, update, w.at(tk))
						law.takeIn(tk, update)
					}
				}
				pushed, havePushed = newestDecoded, true
			}
			update = update.Add(time.Second/60 + time.Duration(rng.IntN(3000)-1500)*time.Microsecond)
			continue
		}
		// A frame drawn: at 75 a second, apart from the updates.
		if havePushed {
			ip.Sample(frame, func(snapshot.EntityID, Entity) {})
			law.frame(frame)
			rt, _ := ip.RenderTick()
			if math.Abs(rt-law.r) > 1e-9 || ip.View() != law.view || math.Abs(ip.Delay().Seconds()*30-law.delay()) > 1e-6 {
				t.Fatalf("frame %d at %v: Interpolator draws %.9f, view %+v, delay %v; the law %.9f, view %+v, delay %.4f ticks",
					frames, frame.Sub(epoch), rt, ip.View(), ip.Delay(), law.r, law.view, law.delay())
			}
			frames++
			if law.view.Gap > 0 {
				between++
			} else {
				alone++
			}
		}
		frame = frame.Add(time.Second / 75)
	}
	t.Logf("%d frames: %d between two ticks, %d at one", frames, between, alone)
	if frames < 3000 || between < frames/2 || alone == 0 {
		t.Errorf("%d frames, %d between two ticks, %d at one: the run did not draw enough", frames, between, alone)
	}
}
