package arena

import (
	"math"
	"testing"
)

// killedInDuel plays rewoundDuel's shot with a target of 1 health, so that
// the hit kills: it returns the kill, the target's y at the end of every
// tick, and where the target stood when it died.
func killedInDuel(t *testing.T, cfg Config, back int) (k Kill, ys map[uint32]float64, tx, deadX, deadY float64, tick uint32, shooter int32) {
	t.Helper()
	w := newBare(t, cfg)
	w.AddPlayer(1)
	w.AddPlayer(2)
	sx, sy, tx, ty := duelSpot(t, w)
	for range SpawnShieldTicks + 1 {
		w.Step()
	}
	place(t, w, 1, sx, sy)
	place(t, w, 2, tx, ty)
	n := seqs{}
	ys = map[uint32]float64{}
	const fireAt = 24
	found := false
	for k1 := 1; k1 <= 40 && !found; k1++ {
		n.apply(w, 2, Input{MoveY: 127})
		in := Input{}
		if k1 == fireAt {
			w.playerOf(t, 2).health = 1
			v := View{From: w.tick + 1 - uint32(back)}
			y0 := ys[v.From]
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
		}
		n.apply(w, 1, in)
		w.Step()
		p := w.playerOf(t, 2)
		ys[w.tick] = p.y
		for _, e := range take(t, w) {
			if e.Kind == EventKill && e.Kill.Victim == 2 {
				k, found, deadX, deadY, tick = e.Kill, true, p.x, p.y, w.tick
			}
		}
	}
	if !found {
		t.Fatal("the shot did not kill")
	}
	return k, ys, tx, deadX, deadY, tick, int32(w.playerBase)
}

// A kill says where its victim stood as the server's rewind judged it:
// shot by a shooter drawing the world 8 ticks back, a target running down
// at full speed died where it stood in the moment the rewind held the
// projectile against (the poses of the ticks around that moment, as the
// rewind blends them), 8 or so ticks before the kill's tick and some 70
// px from where it stood when it died; judged in the present (no rewind),
// where it stood.
func TestKillSaysWhereTheRewindJudgedTheVictim(t *testing.T) {
	k, ys, tx, deadX, deadY, tick, shooter := killedInDuel(t, Config{}, 8)
	j := k.Judged
	if k.Killer != 1 || j.By != shooter || !j.Rewound || j.Bounded || j.Clamped {
		t.Fatalf("kill %+v: want killer 1 (its slot the first player's), judged in the past, neither bounded nor clamped", k)
	}
	moment := float64(tick) - float64(j.Behind)/256
	if moment < float64(tick)-9 || moment > float64(tick)-6 {
		t.Fatalf("judged %d/256 ticks before the kill's tick %d: want about 8 ticks", j.Behind, tick)
	}
	// The rewind's pose at that moment: between the ends of the ticks
	// around it. Behind is rounded to 256ths of a tick (a flight's
	// sub-steps are thirds), so the pose is good to half of that at a
	// run: 7.375/512 px.
	a := math.Floor(moment)
	f := moment - a
	want := ys[uint32(a)] + (ys[uint32(a)+1]-ys[uint32(a)])*f
	if j.X != tx || math.Abs(j.Y-want) > PlayerSpeed*Dt/512 {
		t.Fatalf("judged at (%.3f, %.3f); the rewind's pose at tick %.4f is (%.3f, %.3f)", j.X, j.Y, moment, tx, want)
	}
	if d := math.Hypot(deadX-j.X, deadY-j.Y); d < 50 {
		t.Fatalf("judged %.1f px from where the victim died: want the past, not the present", d)
	}

	k, _, _, deadX, deadY, _, _ = killedInDuel(t, Config{}, 1)
	if j := k.Judged; j.Rewound || j.Behind != 0 || j.X != deadX || j.Y != deadY {
		t.Fatalf("a claim of the present: judged %+v, want where the victim died (%.3f, %.3f)", j, deadX, deadY)
	}
}
