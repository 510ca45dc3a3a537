package duel

import (
	"math"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/protocol"
)

// A liar is an aimer that claims, in every input, a view older than the one
// it drew: Config.LiarTicks before the newest tick it holds (a whole
// tick). Judged against that view, the first ticks of its bolt's flight
// meet the strafer where the liar has already seen it, so it aims with
// what it holds: the strafer's poses from the claimed tick on, and past
// the newest tick the newest pose moved on by the newest tick's motion.
// The server's bound on claimed views (arena, viewbound.go) is what keeps
// this from paying.

// liarView returns the view a liar claims for its next input, and whether
// it holds a tick to claim.
func (a *Aimer) liarView() (arena.View, bool) {
	newest, snap := a.side.cl.Newest()
	back := uint32(a.liar)
	if snap == nil || newest <= back {
		return arena.View{}, false
	}
	return arena.View{From: newest - back}, true
}

// posAt returns the strafer's position in the held tick t, if held and
// alive there.
func (a *Aimer) posAt(t uint32) (point, bool) {
	st := a.side.cl.Snapshot(t)
	if st == nil {
		return point{}, false
	}
	i, ok := st.Find(a.target)
	if !ok {
		return point{}, false
	}
	row := st.Row(i)
	if row[protocol.FieldState]&protocol.StateDead != 0 {
		return point{}, false
	}
	return rowPoint(row), true
}

// liarAim returns the heading that meets the strafer as the claimed view
// v makes the server judge it: the bolt's k-th tick of flight against the
// strafer of tick v.From+k, known up to the newest tick held and moved on
// by the newest tick's motion beyond it. ok is false if the strafer is
// not held around the claimed tick.
func (a *Aimer) liarAim(v arena.View) (float64, bool) {
	newest, _ := a.side.cl.Newest()
	last, ok := a.posAt(newest)
	if !ok {
		return 0, false
	}
	prev, ok := a.posAt(newest - 1)
	vel := point{}
	if ok && dist(prev, last) <= 2*arena.PlayerSpeed*arena.Dt {
		vel = point{last.x - prev.x, last.y - prev.y}
	}
	held := func(t uint32) point {
		if int32(t-newest) <= 0 {
			if p, ok := a.posAt(t); ok {
				return p
			}
		}
		n := float64(int32(t - newest))
		return point{last.x + vel.x*n, last.y + vel.y*n}
	}
	f := float64(v.Frac) / 256
	at := func(k int) point {
		p, q := held(v.From+uint32(k)), held(v.From+uint32(v.Gap)+uint32(k))
		return point{p.x + (q.x-p.x)*f, p.y + (q.y-p.y)*f}
	}
	// The world meets the bolt at flight t with the strafer as drawn t
	// after the view: aim where the bolt's reach first crosses the
	// strafer's distance.
	me := a.side.position()
	const s = arena.ProjectileSpeed * arena.Dt
	gap := func(k int) float64 { return s*float64(k) - dist(me, at(k)) }
	before := gap(0)
	for k := 1; k <= arena.ProjectileTicks; k++ {
		g := gap(k)
		if g >= 0 {
			f := -before / (g - before)
			p0, p1 := at(k-1), at(k)
			x, y := p0.x+(p1.x-p0.x)*f, p0.y+(p1.y-p0.y)*f
			return math.Atan2(y-me.y, x-me.x), true
		}
		before = g
	}
	return 0, false
}
