package smooth

import (
	"math"
	"testing"
	"time"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// copyOf returns the server's projectile of a shot fired from (x, y) px
// along aim, as a snapshot row after it has flown n ticks.
func copyOf(x, y, aim float64, n uint32) (qx, qy, h uint32) {
	h = protocol.HeadingQuant.Quantize(asSent(arena.Input{Aim: aim}).Aim)
	qx, qy = protocol.ShotPoint(protocol.PosQuant.Quantize(x), protocol.PosQuant.Quantize(y), h, n)
	return qx, qy, h
}

func appendShot(t *testing.T, s *snapshot.Snapshot, slot uint16, x, y, h uint32) snapshot.EntityID {
	t.Helper()
	id := snapshot.EntityID{Index: slot, Generation: 1}
	if err := s.Append(id, x, y, h, protocol.KindProjectile, 0, 0); err != nil {
		t.Fatal(err)
	}
	return id
}

// openSpot returns a spot of m with open floor for 400 px to its right.
func openSpot(t *testing.T, m *arena.Map) (float64, float64) {
	t.Helper()
	for y := 200.0; y < arena.WorldSize-200; y += 16 {
		for x := 200.0; x < arena.WorldSize-600; x += 16 {
			if m.Clear(x, y, x+400, y, arena.ProjectileRadius+1) && !m.Blocked(x, y, arena.PlayerRadius) {
				return x, y
			}
		}
	}
	t.Fatal("no open floor")
	return 0, 0
}

// A predicted shot is drawn from the input that fires it, and the server's
// copy, a round trip later, is found on its path: confirmed, hidden, with
// no handover distance when the prediction was exact. A player standing
// still fires two shots along one line: each copy goes to its own shot,
// told apart by how far it has flown.
func TestShotsConfirmedOnTheirPath(t *testing.T) {
	m := arena.NewMap(1)
	x, y := openSpot(t, m)
	s := NewShots(m)
	if !s.Fire(10, x, y, 0, arena.WeaponGun, arena.View{From: 100}) {
		t.Fatal("the first shot was refused")
	}
	drawn := 0
	s.Each(0, time.Time{}, func(sh *PredictedShot, px, py, _, op float64) {
		drawn++
		if math.Hypot(px-x, py-y) > 1 || op != 1 {
			t.Fatalf("drawn at (%v, %v) opacity %v on the press, fired from (%v, %v)", px, py, op, x, y)
		}
	})
	if drawn != 1 {
		t.Fatalf("%d shots drawn on the press", drawn)
	}
	if s.Fire(12, x, y, 0, arena.WeaponGun, arena.View{From: 100}) {
		t.Fatal("a shot within the gun's interval was predicted")
	}
	for seq := uint32(11); seq <= 16; seq++ {
		s.Step(nil)
	}
	if !s.Fire(16, x, y, 0, arena.WeaponGun, arena.View{From: 100}) {
		t.Fatal("a shot after the interval was refused")
	}
	for seq := uint32(17); seq <= 19; seq++ {
		s.Step(nil)
	}
	// The snapshot of the tick the server applied input 18: the first
	// shot has flown 9 ticks, the second 3; the second holds the lower slot.
	st := snapshot.New(protocol.Schema())
	ax, ay, h := copyOf(x, y, 0, 3)
	second := appendShot(t, st, 500, ax, ay, h)
	bx, by, _ := copyOf(x, y, 0, 9)
	first := appendShot(t, st, 501, bx, by, h)
	s.Confirm(st, 1018, 18, time.Unix(1, 0))
	var got []snapshot.EntityID
	s.Each(0.5, time.Unix(1, 0), func(sh *PredictedShot, _, _, _, _ float64) {
		if sh.State != ShotConfirmed {
			t.Fatalf("shot of input %d is %v after its copy came", sh.Seq, sh.State)
		}
		got = append(got, sh.Server)
	})
	if len(got) != 2 || got[0] != first || got[1] != second {
		t.Fatalf("copies %v, want %v then %v", got, first, second)
	}
	if !s.Hides(first) || !s.Hides(second) {
		t.Fatal("a confirmed shot's copy is not hidden")
	}
	if st := s.Stats(); st.Confirmed != 2 || st.HandoverMax != 0 {
		t.Fatalf("%+v", st)
	}
}

// A predicted shot the server did not make (the player died on the way,
// the round ended) is rejected once the server has applied its input a
// few inputs ago, fades out over ShotFade and is counted once.
func TestShotsRejectedFade(t *testing.T) {
	m := arena.NewMap(1)
	x, y := openSpot(t, m)
	s := NewShots(m)
	s.Fire(5, x, y, 1, arena.WeaponSpread, arena.View{From: 100})
	empty := snapshot.New(protocol.Schema())
	now := time.Unix(10, 0)
	s.Confirm(empty, 1006, 6, now)
	if n := s.TakeRejected(); n != 0 {
		t.Fatalf("%d rejected before the grace ran out", n)
	}
	s.Confirm(empty, 1005+shotGrace, 5+shotGrace, now)
	if n := s.TakeRejected(); n != arena.SpreadPellets {
		t.Fatalf("%d pellets rejected, want %d", n, arena.SpreadPellets)
	}
	op := func(at time.Time) (sum float64) {
		s.Each(0, at, func(_ *PredictedShot, _, _, _, o float64) { sum += o })
		return sum
	}
	if o := op(now.Add(ShotFade / 2)); o < 1 || o > 2 {
		t.Fatalf("opacity of three pellets half way through the fade: %v", o)
	}
	if o := op(now.Add(ShotFade)); o != 0 {
		t.Fatalf("still drawn after the fade: opacity %v", o)
	}
	if st := s.Stats(); st.Rejected != arena.SpreadPellets || st.Fired != arena.SpreadPellets || st.Confirmed != 0 {
		t.Fatalf("%+v", st)
	}
}

// A shot stops where it meets a wall, as the server's does: drawn up to
// it, then no more, on the tick of flight that reaches it.
func TestShotsStopAtWalls(t *testing.T) {
	m := arena.NewMap(1)
	s := NewShots(m)
	x, y := openSpot(t, m)
	wall := x
	for !m.Blocked(wall, y, arena.ProjectileRadius) {
		wall++
	}
	s.Fire(1, x, y, 0, arena.WeaponGun, arena.View{From: 100})
	step := arena.ProjectileSpeed * arena.Dt
	reach := int(math.Ceil((wall - x) / step)) // the tick of flight that meets the wall
	for k := 1; k <= arena.ProjectileTicks; k++ {
		n := 0
		s.Each(1, time.Time{}, func(_ *PredictedShot, px, _, _, _ float64) {
			n++
			if px > wall {
				t.Fatalf("flight %d: drawn at x %v, beyond the wall at %v", k, px, wall)
			}
		})
		if (n == 1) != (k < reach) {
			t.Fatalf("flight %d: %d shots drawn; the wall is met on flight %d", k, n, reach)
		}
		s.Step(nil)
	}
}

// A shot that stopped on a drawn target keeps the shooter's verdict; with
// no server copy seen, it is made only if a hit names it, and taken as not
// made (rejected) a second after its input was applied if none does.
func TestShotsVerdicts(t *testing.T) {
	m := arena.NewMap(1)
	x, y := openSpot(t, m)
	empty := snapshot.New(protocol.Schema())
	target := func(px, py, r, at float64) (bool, bool) {
		if at <= 100 || at > 100+arena.ProjectileTicks {
			t.Fatalf("drawn at %v, want a flight after the view of tick 100", at)
		}
		return px > x+100, true
	}
	for _, tc := range []struct {
		name     string
		hit      bool // a hit names the shot
		rejected bool
	}{
		{"a hit names it", true, false},
		{"no hit names it", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewShots(m)
			s.Fire(10, x, y, 0, arena.WeaponGun, arena.View{From: 100})
			for range 6 {
				s.Step(target)
			}
			sh, ok := s.Find(10)
			if !ok || !sh.Ended() || !sh.OnTarget {
				t.Fatalf("shot %+v (held %v): want it stopped on the target", sh, ok)
			}
			if tc.hit {
				s.Hit(10)
			}
			for applied := uint32(10); applied < 10+hitGrace+1; applied++ {
				s.Confirm(empty, 1000+applied, applied, time.Time{})
			}
			if got := s.Stats().Rejected == 1; got != tc.rejected {
				t.Fatalf("stats %+v, want rejected %v", s.Stats(), tc.rejected)
			}
			// It vanished where it met the target, and a verdict does not
			// draw it there again (a rejected shot in flight fades).
			s.Each(0.5, time.Time{}, func(sh *PredictedShot, x, y, _, op float64) {
				t.Errorf("shot %d drawn at (%.0f, %.0f), opacity %.2f, after it stopped on the target", sh.Seq, x, y, op)
			})
		})
	}
}

// A flight whose ticks have not come waits, drawn where it was checked,
// and is decided by a later CatchUp once they have.
func TestShotsWaitForTheirTicks(t *testing.T) {
	m := arena.NewMap(1)
	x, y := openSpot(t, m)
	s := NewShots(m)
	held := 103.0 // the newest tick the hit test holds
	target := func(px, py, r, at float64) (bool, bool) {
		if at > held {
			return false, false
		}
		return px > x+100, true
	}
	s.Fire(10, x, y, 0, arena.WeaponGun, arena.View{From: 100})
	for range 6 {
		s.Step(target)
	}
	sh, _ := s.Find(10)
	if sh.Ended() || sh.tested != 3*3 {
		t.Fatalf("checked %d sub-steps, ended %v; want 9 (up to tick 103), not ended", sh.tested, sh.Ended())
	}
	var drawnX float64
	s.Each(1, time.Time{}, func(_ *PredictedShot, px, _, _, _ float64) { drawnX = px })
	if want, _ := sh.at(3); math.Abs(drawnX-want) > 1e-9 {
		t.Fatalf("drawn at x %v while waiting, want %v (where it was checked)", drawnX, want)
	}
	held = 120
	s.CatchUp(target)
	if sh, _ = s.Find(10); !sh.Ended() || !sh.OnTarget {
		t.Fatalf("after its ticks came: %+v, want it stopped on the target", sh)
	}
}

// The server may fly a shot's copy ahead of the predicted shot (it steps
// the player on without an input when none came in time, and each such
// step flies the copy a tick more). When the copy ends, say on the target
// as drawn, the predicted shot flies on as far as the copy had flown and
// a tick more, meeting what it meets as drawn: the shooter's own verdict
// is its own, and it is still there to be read after the Step it ends in.
func TestShotsFlyOnAfterTheirCopy(t *testing.T) {
	m := arena.NewMap(1)
	x, y := openSpot(t, m)
	s := NewShots(m)
	s.Fire(10, x, y, 0, arena.WeaponGun, arena.View{From: 100})
	s.Step(nil) // input 11
	// The snapshot of input 11's tick: the server stepped twice without
	// the player's inputs, so the copy has flown 4 ticks, the shot 2.
	st := snapshot.New(protocol.Schema())
	cx, cy, h := copyOf(x, y, 0, 4)
	appendShot(t, st, 500, cx, cy, h)
	s.Confirm(st, 1011, 11, time.Unix(1, 0))
	// The target stands where the shot's 5th tick of flight ends.
	tx := x + 5*arena.ProjectileSpeed*arena.Dt
	hit := func(px, py, r, _ float64) (bool, bool) {
		return math.Hypot(px-tx, py-y) < r+arena.PlayerRadius, true
	}
	// The next snapshot: the copy is gone (it hit the target).
	s.Confirm(snapshot.New(protocol.Schema()), 1012, 12, time.Unix(1, 0))
	sh, ok := s.Find(10)
	if !ok || sh.Ended() {
		t.Fatalf("the shot ended with its copy, at flight %d: %+v", sh.flown, sh)
	}
	for range 4 {
		s.Step(hit)
	}
	if sh, ok = s.Find(10); !ok || !sh.Ended() || !sh.OnTarget {
		t.Fatalf("the shot flew on and did not meet the target as drawn: %+v", sh)
	}
	// Nothing stops it otherwise: it ends where the copy may have.
	s = NewShots(m)
	s.Fire(10, x, y, 0, arena.WeaponGun, arena.View{From: 100})
	s.Step(nil)
	s.Confirm(st, 1011, 11, time.Unix(1, 0))
	s.Confirm(snapshot.New(protocol.Schema()), 1012, 12, time.Unix(1, 0))
	for range 10 {
		s.Step(nil)
	}
	if _, ok := s.Find(10); ok {
		t.Fatal("a shot whose copy ended still held 10 ticks on")
	}
}
