package arena

import (
	"math"
	"testing"
)

// duelSpot returns a shooter's spot and a target's start 300 px to its
// right and 150 px up, with open ground for the target to walk 300 px down
// and a clear line from the shooter to all of it.
func duelSpot(t *testing.T, w *World) (sx, sy, tx, ty float64) {
	t.Helper()
	for dx := 0.0; dx < 1500; dx += 8 {
		for _, y := range []float64{mid, mid - 200, mid + 200} {
			sx, sy, tx, ty = mid-600+dx, y, mid-300+dx, y-150
			ok := !w.m.Blocked(sx, sy, PlayerRadius)
			for k := 0.0; ok && k <= 300; k += 4 {
				ok = !w.m.Blocked(tx, ty+k, PlayerRadius+2) && w.m.Clear(sx, sy, tx, ty+k, ProjectileRadius)
			}
			if ok {
				return sx, sy, tx, ty
			}
		}
	}
	t.Fatal("no open duel spot on the map")
	return
}

// rewoundDuel plays one shot: the target (player 2) walks down at full speed; on
// its tick 24 the shooter (player 1) fires, drawing the world as view
// says (resolved against the ticks played), aiming with a perfect lead
// at the target as drawn at view.From. It returns whether the target was
// hit and the world's rewind counters.
func rewoundDuel(t *testing.T, cfg Config, back int, gap, frac uint8) (bool, RewindStats) {
	t.Helper()
	return rewoundDuelAcked(t, cfg, back, gap, frac, 0)
}

// rewoundDuelAcked is rewoundDuel with the fire input's Acked set to the
// tick ackBack before the tick it is fired on (0: unknown).
func rewoundDuelAcked(t *testing.T, cfg Config, back int, gap, frac uint8, ackBack int) (bool, RewindStats) {
	t.Helper()
	w := newBare(t, cfg)
	w.AddPlayer(1)
	w.AddPlayer(2)
	sx, sy, tx, ty := duelSpot(t, w)
	for range SpawnShieldTicks + 1 { // let the spawn shields run out
		w.Step()
	}
	place(t, w, 1, sx, sy)
	place(t, w, 2, tx, ty)
	n := seqs{}
	ys := map[uint32]float64{} // the target's y at the end of each tick
	const fireAt = 24
	hit := false
	for k := 1; k <= 40; k++ {
		n.apply(w, 2, Input{MoveY: 127})
		in := Input{}
		if k == fireAt {
			from := int64(w.tick+1) - int64(back) // the tick fired on is w.tick+1
			v := View{Gap: gap, Frac: frac}
			if from > 0 {
				v.From = uint32(from)
			}
			// Where the target is drawn at flight f: walking on from its
			// place at v.From (+f, the world's convention).
			y0 := ys[v.From] + float64(gap)*float64(frac)/256*PlayerSpeed*Dt
			speed, shot := PlayerSpeed*Dt, ProjectileSpeed*Dt
			dx := tx - sx
			var aim float64
			for f := 1.0; f < 40; f += 0.01 {
				ay := y0 + speed*f - sy
				if math.Hypot(dx, ay) <= shot*f {
					aim = math.Atan2(ay, dx)
					break
				}
			}
			in = Input{Buttons: ButtonFire, Aim: aim, View: v}
			if ackBack > 0 {
				in.Acked = w.tick + 1 - uint32(ackBack)
			}
		}
		n.apply(w, 1, in)
		w.Step()
		ys[w.tick] = w.playerOf(t, 2).y
		for _, e := range take(t, w) {
			if e.Kind == EventHit && e.Hit.Attacker == 1 && e.Hit.Target == 2 {
				hit = true
			}
		}
	}
	return hit, w.stats.Rewind
}

// A shot is judged against the targets as its shooter drew them, as far
// back as the rewind allows: aimed perfectly at a running target drawn 8
// ticks in the past, it hits with the rewind on and misses without; a
// claim older than the rewind is judged at its limit (and misses); a claim
// of a tick not played yet, or no claim, is judged in the present.
func TestShotJudgedAsSeen(t *testing.T) {
	for _, tc := range []struct {
		name          string
		cfg           Config
		back          int
		gap, frac     uint8
		hit           bool
		shots, clamps uint64
	}{
		{"drawn 8 ticks back, rewind on", Config{}, 8, 0, 0, true, 1, 0},
		{"drawn between two ticks", Config{}, 9, 1, 128, true, 1, 0},
		{"drawn 8 ticks back, rewind off", Config{RewindTicks: -1}, 8, 0, 0, false, 0, 0},
		{"drawn 8 ticks back, a rewind of 4", Config{RewindTicks: 4}, 8, 0, 0, false, 1, 1},
		{"drawn 20 ticks back: past the default limit", Config{}, 20, 0, 0, false, 1, 1},
		{"drawn 20 ticks back, a rewind of 30", Config{RewindTicks: MaxRewindTicks}, 20, 0, 0, true, 1, 0},
		{"a claim of the present: judged there", Config{}, 1, 0, 0, true, 0, 0},
		{"a claim of the future", Config{}, -5, 0, 0, false, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hit, st := rewoundDuel(t, tc.cfg, tc.back, tc.gap, tc.frac)
			if hit != tc.hit || st.Shots != tc.shots || st.Clamped != tc.clamps {
				t.Fatalf("hit %v, %+v; want hit %v, %d shots judged in the past, %d clamped", hit, st, tc.hit, tc.shots, tc.clamps)
			}
			if hit && st.Shots > 0 && st.Hits != 1 {
				t.Fatalf("a hit in the past counted %d times", st.Hits)
			}
		})
	}
}

// A claimed view older than the server's estimate of the client's view
// (the tick it had acknowledged, less the interpolation delay its inputs'
// arrivals call for, and a quarter of a tick for its frames) is judged
// from the estimate: with a steady link (a delay of a tick and a quarter),
// a client that held the tick 7 ticks back may claim 8.25 ticks back; its
// claim of 8.5 is judged from 8.25 (its target walking on from where it
// stood 8.5 back, a hit); one that held the tick 2 back is judged from
// 3.25 ticks back whatever it claims (from where its target stood at most
// 3.75 ticks back). A claim beyond the cap is cut to the cap (clamped),
// and then judged from the floor as well (bounded): both counted.
// Rewind.Ticks counts from the view the targets start from.
func TestClaimedViewBounded(t *testing.T) {
	for _, tc := range []struct {
		name             string
		back             int
		gap, frac        uint8
		ackBack          int
		hit              bool
		bounded, clamped uint64
		meanTicks        float64 // how far back the shot was judged
	}{
		{"held 7 back, drew 8 back", 8, 0, 0, 7, true, 0, 0, 8},
		{"held 7 back, drew 8.25 back", 9, 1, 192, 7, true, 0, 0, 8.25},
		{"held 7 back, drew 8.5 back: judged from 8.25", 9, 1, 128, 7, true, 1, 0, 8.5},
		{"held 2 back, claims 8 back", 8, 0, 0, 2, false, 1, 0, 3.75},
		{"held 2 back, claims 20 back: clamped and bounded", 20, 0, 0, 2, false, 1, 1, 3.75},
		{"held 10 back, claims 20 back: clamped", 20, 0, 0, 10, false, 0, 1, 11},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hit, st := rewoundDuelAcked(t, Config{}, tc.back, tc.gap, tc.frac, tc.ackBack)
			if hit != tc.hit || st.Bounded != tc.bounded || st.Shots != 1 || st.Clamped != tc.clamped {
				t.Fatalf("hit %v, %+v; want hit %v, 1 shot judged in the past, %d bounded, %d clamped", hit, st, tc.hit, tc.bounded, tc.clamped)
			}
			// Judged a tick after the one drawn, a view of From is
			// tick-From-1 ticks back (RewindStats.Ticks).
			if got := float64(st.Ticks)/256 + 1; got != tc.meanTicks {
				t.Fatalf("judged %.3f ticks back, want %.3f", got, tc.meanTicks)
			}
		})
	}
}

// A rewind longer than a second is refused.
func TestRewindLimit(t *testing.T) {
	if _, err := NewWorld(Config{RewindTicks: MaxRewindTicks + 1}); err == nil {
		t.Fatal("a rewind of more than MaxRewindTicks was accepted")
	}
	if got := RewindTicksOf(0); got != -1 {
		t.Fatalf("RewindTicksOf(0) = %d, want -1 (off)", got)
	}
	if got := RewindTicksOf(250_000_000); got != 8 {
		t.Fatalf("RewindTicksOf(250ms) = %d, want 8", got)
	}
}
