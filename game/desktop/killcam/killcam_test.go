package killcam

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/sightline-game/sightline/game/desktop/controls"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/game/smooth"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

const (
	killerSlot = 305
	victimSlot = 309
	boltSlot   = 1200
	killTick   = 400
	behind     = 2176 // 8.5 ticks
)

var epoch = time.Date(2026, 12, 6, 3, 0, 0, 0, time.UTC)

// killerAt and victimAt are where the two players stand at the end of tick
// t (fractions between): the killer walks right, the victim runs down.
func killerAt(t float64) (x, y float64) { return 1000 + 3*t, 2000 }
func victimAt(t float64) (x, y float64) { return 1400, 1000 + 7*t }

// snap returns tick t's snapshot: the killer, the victim and a bolt.
func snap(s *snapshot.Snapshot, t uint32) *snapshot.Snapshot {
	s.Reset()
	add := func(slot uint16, kind uint32, x, y float64) {
		row := s.AppendUnchecked(snapshot.EntityID{Index: slot, Generation: 1})
		row[protocol.FieldX] = protocol.PosQuant.Quantize(x)
		row[protocol.FieldY] = protocol.PosQuant.Quantize(y)
		row[protocol.FieldKind] = kind
		row[protocol.FieldHealth] = 100
	}
	kx, ky := killerAt(float64(t))
	add(killerSlot, protocol.KindPlayer, kx, ky)
	vx, vy := victimAt(float64(t))
	add(victimSlot, protocol.KindPlayer, vx, vy)
	add(boltSlot, protocol.KindProjectile, kx+float64(t%10)*20, ky)
	return s
}

// The killcam replays the killer's side and marks the victim exactly where
// the kill event says the server judged it: the others drawn at the
// killer's view (the kill's tick less its Behind), the killer and the
// bolts at the server's time; it waits for the kill's tick to arrive, ends
// after its hold, and says the verdict in a line.
func TestKillcamMarksTheJudgedVictim(t *testing.T) {
	reel := smooth.NewReel()
	s := snapshot.New(protocol.Schema())
	for tick := uint32(killTick - 120); tick < killTick; tick++ {
		reel.Push(tick, snap(s, tick))
		reel.NoteSelf(tick+3000, 1400, float64(tick)*7+1000+30) // drawn a little ahead of the server
		reel.Applied(tick, tick+3000)
	}
	// The rewind judged the victim 8.5 ticks back: where it stood then.
	jx, jy := victimAt(killTick - float64(behind)/256)
	body := protocol.Kill{Killer: 4, Victim: 7, Judged: protocol.JudgedRewound, Behind: behind,
		X: uint16(protocol.PosQuant.Quantize(jx)), Y: uint16(protocol.PosQuant.Quantize(jy)), By: killerSlot + 1}
	c := New(30, reel)
	c.Start(epoch, Kill{Tick: killTick, Body: body, VictimSlot: victimSlot, Own: true, KillerName: "ada", VictimName: "you"})
	none := func(snapshot.EntityID, smooth.Entity) { t.Fatal("drew while waiting") }
	if f := c.Frame(epoch.Add(10*time.Millisecond), none); f.Phase != Waiting {
		t.Fatalf("phase %d before the kill's tick arrived, want Waiting", f.Phase)
	}
	reel.Push(killTick, snap(s, killTick))
	reel.NoteSelf(killTick+3000, 1400, killTick*7+1000+30)
	reel.Applied(killTick, killTick+3000)

	var drawn map[uint16]smooth.Entity
	draw := func(id snapshot.EntityID, e smooth.Entity) { drawn[id.Index] = e }
	frame := func(at time.Duration) Frame {
		drawn = map[uint16]smooth.Entity{}
		return c.Frame(epoch.Add(at), draw)
	}
	f := frame(20 * time.Millisecond) // the replay starts
	if f.Phase != Replay || f.Tick != killTick-ReplayTicks || f.Progress != 0 {
		t.Fatalf("first frame %+v, want the replay from tick %d", f, killTick-ReplayTicks)
	}
	f = frame(20*time.Millisecond + 500*time.Millisecond) // 15 ticks in
	if want := float64(killTick - ReplayTicks + 15); math.Abs(f.Tick-want) > 1e-6 || math.Abs(f.View-(want-8.5)) > 1e-6 {
		t.Fatalf("tick %.3f view %.3f, want %.3f and %.3f", f.Tick, f.View, want, want-8.5)
	}
	// The victim as the killer drew it (its view), the killer in its
	// present; the bolt in the present.
	vx, vy := victimAt(f.View)
	kx, ky := killerAt(f.Tick)
	if v := drawn[victimSlot]; !f.VictimOK || math.Abs(v.X-vx) > 0.2 || math.Abs(v.Y-vy) > 0.2 {
		t.Fatalf("victim drawn at (%.2f, %.2f), want its place at the killer's view (%.2f, %.2f)", v.X, v.Y, vx, vy)
	}
	if k := drawn[killerSlot]; !f.KillerOK || math.Abs(k.X-kx) > 0.2 || k != f.Killer {
		t.Fatalf("killer drawn at (%.2f, %.2f), want its place at the server's time (%.2f, %.2f)", k.X, k.Y, kx, ky)
	}
	if _, ok := drawn[boltSlot]; !ok {
		t.Fatal("the bolt is not drawn")
	}

	f = frame(20*time.Millisecond + 1600*time.Millisecond) // past the 1.5 s replay
	if f.Phase != Verdict || f.Tick != killTick || f.View != killTick-8.5 {
		t.Fatalf("frame at the blow %+v, want the verdict at tick %d", f, killTick)
	}
	// The judged marker is the event's position, exactly; the victim as
	// drawn at the judged view is there too (the quantization's 1/8 px).
	want := [2]float64{protocol.PosQuant.Dequantize(uint32(body.X)), protocol.PosQuant.Dequantize(uint32(body.Y))}
	if f.Judged != want {
		t.Fatalf("judged marker at %v, the event says %v", f.Judged, want)
	}
	if v := drawn[victimSlot]; math.Hypot(v.X-want[0], v.Y-want[1]) > 0.2 {
		t.Fatalf("victim drawn at (%.2f, %.2f) at the judged view, the event says %v", v.X, v.Y, want)
	}
	if !f.OwnOK || f.Own != [2]float64{1400, killTick*7 + 1000 + 30} {
		t.Fatalf("on your screen %v %v, want where the reel says the own player was drawn", f.Own, f.OwnOK)
	}
	if f.BehindMs < 283 || f.BehindMs > 284 ||
		!strings.Contains(f.Verdict, "hit judged at their view, 283 ms behind the server") ||
		!strings.Contains(f.Verdict, "90 px from where you were on your screen") || !strings.Contains(f.Title, "ada killed you") {
		t.Fatalf("title %q verdict %q (%.1f ms)", f.Title, f.Verdict, f.BehindMs)
	}
	if f = frame(20*time.Millisecond + 1600*time.Millisecond + Hold); f.Phase != Off || len(drawn) != 0 {
		t.Fatalf("after the hold: phase %d, %d drawn", f.Phase, len(drawn))
	}

	// A spectator's "on yours" is where the server had the victim; Stop
	// ends it (a skip, the respawn).
	c.Start(epoch, Kill{Tick: killTick, Body: body, VictimSlot: victimSlot, KillerName: "ada", VictimName: "bob"})
	f = frame(2 * time.Second)
	if f.Phase != Replay {
		t.Fatalf("phase %d", f.Phase)
	}
	f = frame(4 * time.Second)
	if x, y := victimAt(killTick); f.Phase != Verdict || f.Own != [2]float64{x, y} || !strings.Contains(f.Verdict, "from where the server had bob") {
		t.Fatalf("spectator's verdict %+v", f)
	}
	c.Stop()
	if f = frame(4 * time.Second); f.Phase != Off {
		t.Fatalf("phase %d after Stop", f.Phase)
	}
}

// A kill whose tick never arrives plays what the reel holds after Wait;
// a replay starts no earlier than the reel holds the killer's view.
func TestKillcamPlaysWhatTheReelHolds(t *testing.T) {
	reel := smooth.NewReel()
	s := snapshot.New(protocol.Schema())
	for tick := uint32(killTick - 20); tick < killTick; tick++ {
		reel.Push(tick, snap(s, tick))
	}
	c := New(30, reel)
	c.Start(epoch, Kill{Tick: killTick, Body: protocol.Kill{Behind: behind, By: killerSlot + 1}, VictimSlot: victimSlot})
	if f := c.Frame(epoch.Add(Wait-time.Millisecond), func(snapshot.EntityID, smooth.Entity) {}); f.Phase != Waiting {
		t.Fatalf("phase %d before Wait", f.Phase)
	}
	f := c.Frame(epoch.Add(Wait), func(snapshot.EntityID, smooth.Entity) {})
	if f.Phase != Replay || f.Tick != killTick-20+9 || f.View < killTick-20 {
		t.Fatalf("%+v: want a replay from tick %d, its view %d", f, killTick-20+9, killTick-20)
	}
	if !strings.Contains(f.Title, "a creature bit") {
		t.Fatalf("title %q", f.Title)
	}
}

// A killcam ends when its victim is alive in a tick after the kill's (the
// respawn), not before; any press skips it but F3, Esc, Tab and typing.
func TestKillcamEndsOnRespawnAndSkips(t *testing.T) {
	c := New(30, smooth.NewReel())
	c.Start(epoch, Kill{Tick: killTick})
	c.Saw(killTick, true) // the kill's own tick: not a respawn
	c.Saw(killTick+40, false)
	if c.Phase() == Off {
		t.Fatal("ended before the victim was alive again")
	}
	c.Saw(killTick+90, true)
	if c.Phase() != Off {
		t.Fatal("the respawn did not end it")
	}
	for _, tc := range []struct {
		name string
		st   controls.State
		skip bool
	}{
		{"a key", controls.State{AnyPress: true}, true},
		{"a key held, none pressed", controls.State{Fire: true}, false},
		{"F3", controls.State{AnyPress: true, Pressed: controls.KeyF3}, false},
		{"Esc", controls.State{AnyPress: true, Pressed: controls.KeyEscape}, false},
		{"Tab", controls.State{AnyPress: true, Scoreboard: true}, false},
		{"typing", controls.State{AnyPress: true, Typing: true}, false},
		{"Enter", controls.State{AnyPress: true, Pressed: controls.KeyEnter}, true},
	} {
		if got := Skips(&tc.st); got != tc.skip {
			t.Errorf("%s: skips %v, want %v", tc.name, got, tc.skip)
		}
	}
}
