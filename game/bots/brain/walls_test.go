package brain

import (
	"fmt"
	"math"
	"testing"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/protocol"
)

// behindWall is a bot and a still creature on a generated map: close
// enough to shoot, with a wall between them that the bot must walk around.
type behindWall struct {
	seed           uint64
	x, y, tx, ty   float64
	straight, walk int // tiles apart in a line, and along the shortest route
}

// findBehindWall returns the first (in row order) pair of open tile centres
// of map seed, dx, dy tiles apart, with no line of fire between them and a
// route at least detour tiles longer than the straight line.
func findBehindWall(t testing.TB, seed uint64, dx, dy, detour int) behindWall {
	t.Helper()
	m := arena.NewMap(seed)
	r := newRouter(m)
	for ty := 1; ty+dy < arena.Tiles-1; ty++ {
		for tx := 1; tx+dx < arena.Tiles-1; tx++ {
			a, g := ty*arena.Tiles+tx, (ty+dy)*arena.Tiles+tx+dx
			x, y := tileCentre(a)
			gx, gy := tileCentre(g)
			if m.Blocked(x, y, arena.PlayerRadius) || m.Blocked(gx, gy, arena.CreatureRadius) ||
				m.Clear(x, y, gx, gy, arena.ProjectileRadius) || !r.find(a, g) || r.n-1 < dx+dy+detour {
				continue
			}
			return behindWall{seed, x, y, gx, gy, dx + dy, r.n - 1}
		}
	}
	t.Fatalf("map %d has no wall to hide behind", seed)
	return behindWall{}
}

// hunt plays a brain against a still creature at (c.tx, c.ty) for up to
// ticks, walking the bot with arena.MovePlayer on the real map. It returns
// the shots fired while the creature was behind a wall, the first tick the
// bot had a line of fire within FireRange (0: never) and the first tick it
// fired.
func hunt(t *testing.T, b *Brain, c behindWall, ticks int) (blindShots, sight, firstShot int) {
	m := arena.NewMap(c.seed)
	x, y := c.x, c.y
	for tick := 1; tick <= ticks; tick++ {
		view := scene(t, ent{slot: 9, kind: protocol.KindCreature, x: c.tx, y: c.ty}, me(x, y))
		in := b.Next(selfSlot, view)
		// What the snapshot says, as the bot saw it.
		qx, qy := pos(view, 1)
		seen := m.Clear(qx, qy, c.tx, c.ty, arena.ProjectileRadius)
		if sight == 0 && seen && math.Hypot(c.tx-qx, c.ty-qy) <= FireRange {
			sight = tick
		}
		if in.Buttons&arena.ButtonFire != 0 {
			if !seen {
				blindShots++
			}
			if firstShot == 0 {
				firstShot = tick
			}
		}
		if sight > 0 && firstShot > 0 {
			break
		}
		x, y = arena.MovePlayer(m, x, y, mx(in), my(in))
	}
	return blindShots, sight, firstShot
}

func mx(in arena.Input) float64 { x, _ := arena.MoveIntent(in.MoveX, in.MoveY); return x }
func my(in arena.Input) float64 { _, y := arena.MoveIntent(in.MoveX, in.MoveY); return y }

// TestBrainWalksAroundWalls: a creature behind a wall, within FireRange.
// The bot holds its fire until it has a line of fire, and gets one by
// walking the route around the wall, within the route's walking time and a
// second. Without the map the same bot fires into the wall.
func TestBrainWalksAroundWalls(t *testing.T) {
	cases := []struct {
		seed           uint64
		dx, dy, detour int
	}{
		{seed: 1, dx: 0, dy: 4, detour: 6},
		{seed: 1, dx: 4, dy: 0, detour: 6},
		{seed: 2, dx: 0, dy: 5, detour: 8},
		{seed: 3, dx: 3, dy: 3, detour: 4},
		{seed: 21, dx: 5, dy: 0, detour: 10},
	}
	const ticks = 30 * arena.TickRate
	for _, tc := range cases {
		c := findBehindWall(t, tc.seed, tc.dx, tc.dy, tc.detour)
		t.Run(fmt.Sprintf("seed %d, %d+%d tiles, %d walking", c.seed, tc.dx, tc.dy, c.walk), func(t *testing.T) {
			b := New(uint64(tc.seed))
			b.SetMap(arena.NewMap(c.seed))
			blind, sight, first := hunt(t, b, c, ticks)
			walk := float64(c.walk*arena.Tile) / (arena.PlayerSpeed * arena.Dt) // ticks along the route, at most
			blindOld, sightOld, _ := hunt(t, New(uint64(tc.seed)), c, ticks)
			t.Logf("from (%.0f, %.0f) to (%.0f, %.0f): line of fire after %d ticks (route: %.0f ticks), first shot on tick %d, %d shots into the wall; without the map: %d shots into the wall, line of fire after %d ticks",
				c.x, c.y, c.tx, c.ty, sight, walk, first, blind, blindOld, sightOld)
			if blind != 0 {
				t.Errorf("%d shots fired with a wall in the way", blind)
			}
			if sight == 0 || float64(sight) > walk+arena.TickRate {
				t.Errorf("line of fire after %d ticks, want at most %.0f", sight, walk+arena.TickRate)
			}
			if first == 0 || first < sight {
				t.Errorf("first shot on tick %d, line of fire on tick %d", first, sight)
			}
			if blindOld == 0 {
				t.Error("without the map the bot did not fire into the wall either: the case tests nothing")
			}
		})
	}
}
