package brain

import (
	"math"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// How a Brain fights.
const (
	// FireRange is the farthest a bot shoots at, in px.
	FireRange = 500
	// KeepDistance is how far a bot likes to stay from its target, in px;
	// within KeepBand of it the bot circles instead.
	KeepDistance = 200
	KeepBand     = 40
	// AimTolerance is how far off its target a bot's aim may be when it
	// fires, in radians (about 6°).
	AimTolerance = 0.1
	// MaxTurn is how far a bot turns its aim in one tick, in radians: a bot
	// aims like a hand on a mouse, not instantly.
	MaxTurn = 0.3
)

// View is what a Brain reads from its headless client: the slot of its own
// entity (once the server said) and the newest decoded snapshot.
// *client.Client is one.
type View interface {
	Self() (slot uint16, ok bool)
	Newest() (tick uint32, state *snapshot.Snapshot)
}

// Brain plays the arena from what its client decoded. It picks the nearest
// live, unshielded player or creature in view that is not itself, turns its aim towards
// it, fires when roughly aligned and within FireRange, and closes in to
// about KeepDistance (backing off when nearer, circling in between). With
// nothing in view it wanders. A bot that keeps pushing without moving takes
// a short detour in a random direction.
//
// Given the match's map (SetMap), it respects the walls:
//
//   - It goes for the nearest of the 8 nearest targets that it has a clear
//     line of fire to (Map.Clear for a projectile), and for the nearest of
//     all only when it sees none of them. It holds on to its target while
//     no other is a tile's length nearer, and chases one that went out of
//     sight for a second.
//   - It fires only when the line along its aim is clear of walls up to
//     the target.
//   - It walks to a target it does not see, or cannot walk straight to,
//     along a shortest route over the map's open tiles, towards the
//     farthest of the route's next tiles its body has a clear line to. It
//     circles and backs off only where that keeps it walking and the
//     target in sight, turning the other way (or closing in) when not.
//   - With nothing in view it walks a route to a random open tile, then to
//     another, instead of into walls; its detours head where it can walk.
//
// Without the map it plays as if there were no walls.
//
// Now and then (at most once every dashEvery ticks) it dashes: straight at a
// target in sight more than a dash beyond the distance it keeps, or away
// from one within half that distance.
//
// Given its client's records (Play with a View that is also Records, or
// Read), it fetches spread guns and power-ups: one within ItemReach unless
// it fights a player in sight, one within ItemGrab even then (shooting on
// the way), a spread gun only when it has fewer than half a gun's shots
// left. Holding the spread gun it fights at point blank: it closes in to
// SpreadKeep and fires within SpreadRange.
//
// A Brain is deterministic (same seed, same views, same inputs) and
// allocates nothing per tick: SetMap makes the route search's buffers
// (40 KB) once.
type Brain struct {
	wander *Wanderer

	aim               float64
	self              uint16
	hasSelf           bool
	strafe            float64 // +1 or -1: which way it circles
	lastX, lastY      float64
	pushed            bool // the last input asked to move
	stuck, detour     int
	detourX, detourY  int8
	strafeUntil, tick int
	dashAt            int // the first tick it may dash again

	m   *arena.Map
	nav *router
	// The route in use: found on tick navAt from tile navFrom to navTo
	// (navOK: there is one); the bot walks towards (wayX, wayY).
	navFrom, navTo, navAt int
	navOK                 bool
	wayX, wayY            float64
	// The open tile it wanders to, and the tick it gives up on it.
	goal, goalUntil int
	// The target it went for last, and until when it chases it out of
	// sight.
	prey      snapshot.EntityID
	hasPrey   bool
	preyUntil int

	// The spread guns and power-ups lying about and the bot's loadout,
	// from its records (Read).
	items itemState
}

// How a Brain with a map finds its way.
const (
	// sightChecks is how many of the nearest targets a bot checks its line
	// of fire to, nearest first, each tick.
	sightChecks = 8
	// rerouteTicks is the longest a bot walks one route before it searches
	// again (it also does whenever its tile or its goal's changes).
	rerouteTicks = 15
	// chaseTicks is how long a bot keeps after a target it lost sight of
	// (when nothing else is much nearer) before it takes another.
	chaseTicks = arena.TickRate
	// switchMargin is how much nearer than its target, in px, another must
	// be for a bot to switch to it.
	switchMargin = arena.Tile
	// sightAhead is how many ticks ahead a bot circling or backing off
	// looks for walls in its way and cover that would hide its target.
	sightAhead = 10
	// wanderTicks is the longest a bot walks towards one wander goal.
	wanderTicks = 20 * arena.TickRate
	// detourTicks is the length of a detour.
	detourTicks = 20
	// dashEvery is the least number of ticks between two of a bot's
	// dashes: a second more than the rules' cooldown, so a bot does not
	// dash whenever it can.
	dashEvery = arena.DashCooldown + arena.TickRate
	// dashReach is how far a dash goes, in px.
	dashReach = arena.DashTicks * arena.DashSpeed * arena.Dt
	// fleeShare is how near a target must be for a bot backing off to
	// dash away from it, as a share of the distance it keeps.
	fleeShare = 0.5
)

// New returns a brain; the same seed wanders the same way.
func New(seed uint64) *Brain {
	return &Brain{wander: NewWanderer(seed), strafe: 1, navFrom: -1, goal: -1}
}

// SetSelf tells the brain its own slot, for a View that does not know it.
func (b *Brain) SetSelf(slot uint16) { b.self, b.hasSelf = slot, true }

// SetMap gives the brain the match's walls (arena.NewMap of the welcome's
// seed); nil takes them away. It makes the route search's buffers, once.
// The map is only read: bots of one match may share it.
func (b *Brain) SetMap(m *arena.Map) {
	b.m = m
	b.navFrom, b.navOK, b.goal, b.hasPrey = -1, false, -1, false
	switch {
	case m == nil:
		b.nav = nil
	case b.nav == nil:
		b.nav = newRouter(m)
	default:
		b.nav.setMap(m)
	}
}

// Map returns the map SetMap gave, or nil.
func (b *Brain) Map() *arena.Map { return b.m }

// Play returns the input for the next tick from what v holds: the Brain's
// decision when v knows the bot's slot (or SetSelf was called) and has a
// snapshot, else the Wanderer's. When v also holds the records (Records),
// it reads them first: the pickups to fetch and the bot's loadout.
func (b *Brain) Play(v View) arena.Input {
	if r, ok := v.(Records); ok {
		b.Read(r)
	}
	self, ok := v.Self()
	if !ok {
		self, ok = b.self, b.hasSelf
	}
	_, state := v.Newest()
	if !ok || state == nil {
		in := b.wander.Next()
		b.aim = in.Aim
		return in
	}
	return b.Next(self, state)
}

// Next returns the input for the next tick, given the slot of the bot's own
// entity and the newest state it decoded.
func (b *Brain) Next(self uint16, view *snapshot.Snapshot) arena.Input {
	b.tick++
	i, ok := -1, false
	if view != nil {
		i, ok = view.Find(self)
	}
	if !ok || view.Value(i, protocol.FieldKind) != protocol.KindPlayer {
		return b.roam()
	}
	if view.Value(i, protocol.FieldState)&protocol.StateDead != 0 {
		b.pushed = false
		return arena.Input{Aim: b.aim} // dead: wait
	}
	x, y := pos(view, i)
	b.checkStuck(x, y)

	target, best, visible := b.pick(view, i, x, y)
	duel := target >= 0 && visible && view.Value(target, protocol.FieldKind) == protocol.KindPlayer
	if gx, gy, ok := b.itemGoal(x, y, duel); ok && b.detour == 0 {
		return b.fetch(view, x, y, gx, gy, target, best, visible)
	}
	if target < 0 {
		return b.roamAt(x, y)
	}
	keep := b.keepDistance()
	tx, ty := pos(view, target)
	want := math.Atan2(ty-y, tx-x)
	b.aim = turn(b.aim, want, MaxTurn)
	in := arena.Input{Aim: b.aim}
	b.trigger(&in, x, y, want, best, visible)
	if b.detour > 0 {
		b.detour--
		in.MoveX, in.MoveY = b.detourX, b.detourY
	} else {
		var ux, uy float64
		closeIn := !visible || best > keep+KeepBand
		dash := false
		if !closeIn {
			ux, uy, _ = direction(x, y, tx, ty)
			if best < keep-KeepBand {
				ux, uy = b.backOff(x, y, ux, uy, tx, ty)
				dash = best < keep*fleeShare
			} else {
				if b.tick >= b.strafeUntil { // change the way it circles now and then
					b.strafe = -b.strafe
					b.strafeUntil = b.tick + 45 + b.wander.rng.IntN(60)
				}
				var ok bool
				ux, uy, ok = b.circle(x, y, ux, uy, tx, ty)
				closeIn = !ok
			}
		}
		if closeIn { // straight if it can, else along a route
			routed := false
			if b.m != nil && (!visible || !b.m.Clear(x, y, tx, ty, arena.PlayerRadius)) {
				ux, uy, routed = b.follow(x, y, tx, ty)
			}
			if !routed {
				ux, uy, _ = direction(x, y, tx, ty)
				dash = visible && best > keep+KeepBand+dashReach
			}
		}
		in.MoveX, in.MoveY = stick(ux, uy)
		if dash && b.tick >= b.dashAt && (in.MoveX != 0 || in.MoveY != 0) {
			in.Buttons |= arena.ButtonDash
			b.dashAt = b.tick + dashEvery
		}
	}
	b.pushed = in.MoveX != 0 || in.MoveY != 0
	return in
}

// trigger presses fire in in when the bot at (x, y) aims within
// AimTolerance of want, the direction of its target best px away in its
// line of fire (visible), within its weapon's range and with the line
// along its aim clear.
func (b *Brain) trigger(in *arena.Input, x, y, want, best float64, visible bool) {
	if visible && math.Abs(angleDiff(b.aim, want)) <= AimTolerance && best <= b.fireRange() && b.lineOfFire(x, y, best) {
		in.Buttons |= arena.ButtonFire
	}
}

// fetch walks the bot at (x, y) to the item at (gx, gy), along a route with
// the map, aiming at and shooting its target (if any) on the way, or
// looking where it goes.
func (b *Brain) fetch(view *snapshot.Snapshot, x, y, gx, gy float64, target int, best float64, visible bool) arena.Input {
	want := math.Atan2(gy-y, gx-x)
	if target >= 0 && visible {
		tx, ty := pos(view, target)
		want = math.Atan2(ty-y, tx-x)
	}
	b.aim = turn(b.aim, want, MaxTurn)
	in := arena.Input{Aim: b.aim}
	if target >= 0 {
		b.trigger(&in, x, y, want, best, visible)
	}
	routed := false
	var ux, uy float64
	if b.m != nil && !b.m.Clear(x, y, gx, gy, arena.PlayerRadius) {
		ux, uy, routed = b.follow(x, y, gx, gy)
	}
	if !routed {
		ux, uy, _ = direction(x, y, gx, gy)
	}
	in.MoveX, in.MoveY = stick(ux, uy)
	b.pushed = in.MoveX != 0 || in.MoveY != 0
	return in
}

// candidate is a target in view, its distance and its rank: the distance,
// or for a player while the bot holds the spread gun huntShare of it.
type candidate struct {
	j       int
	d, rank float64
}

// huntShare is how much nearer than it is a player counts when a bot with
// the spread gun picks its target: a spread gun is for players.
const huntShare = 0.4

// pick returns the entity the bot at (x, y), entity i of view, goes for,
// its distance and whether the bot has a clear line of fire to it: the
// nearest target, or with a map the nearest of the sightChecks nearest it
// sees (the nearest of all, unseen, if it sees none); holding the spread
// gun, players count as nearer (huntShare). -1 if there is none.
func (b *Brain) pick(view *snapshot.Snapshot, i int, x, y float64) (target int, d float64, visible bool) {
	var near [sightChecks]candidate // sorted by rank, the first found first among equals
	n := 0
	hunt := b.spread()
	for j := range view.Len() {
		if j == i || !isTarget(view, j) {
			continue
		}
		tx, ty := pos(view, j)
		d := math.Hypot(tx-x, ty-y)
		r := d // its rank: players count nearer to a bot hunting them
		if hunt && view.Value(j, protocol.FieldKind) == protocol.KindPlayer {
			r *= huntShare
		}
		if !(d < math.Inf(1)) || n == len(near) && r >= near[n-1].rank {
			continue
		}
		k := min(n, len(near)-1)
		n = min(n+1, len(near))
		for ; k > 0 && near[k-1].rank > r; k-- {
			near[k] = near[k-1]
		}
		near[k] = candidate{j, d, r}
	}
	if n == 0 {
		return -1, 0, false
	}
	if b.m == nil {
		return near[0].j, near[0].d, true // without walls every line is clear
	}
	c, vis := near[0], false
	for _, cand := range near[:n] {
		tx, ty := pos(view, cand.j)
		if b.m.Clear(x, y, tx, ty, arena.ProjectileRadius) {
			c, vis = cand, true
			break
		}
	}
	// Hold on to the last target unless another is clearly better: one in
	// sight against one out of it (unless it was in sight within the last
	// chaseTicks), or one switchMargin nearer.
	if k, ok := b.preyIn(view, i); ok && k != c.j {
		px, py := pos(view, k)
		pd := math.Hypot(px-x, py-y)
		notFar := pd <= c.d+switchMargin
		switch seen := b.m.Clear(x, y, px, py, arena.ProjectileRadius); {
		case seen && (notFar || !vis),
			!seen && b.tick < b.preyUntil && (!vis || c.d+switchMargin >= pd),
			!seen && !vis && notFar:
			c, vis = candidate{k, pd, pd}, seen
		}
	}
	b.prey, b.hasPrey = view.ID(c.j), true
	if vis {
		b.preyUntil = b.tick + chaseTicks
	}
	return c.j, c.d, vis
}

// preyIn returns where the target the bot went for last is in view, if it
// is there, the same entity (slot and generation) and still a target.
func (b *Brain) preyIn(view *snapshot.Snapshot, self int) (int, bool) {
	if !b.hasPrey {
		return 0, false
	}
	k, ok := view.Find(b.prey.Index)
	if !ok || k == self || view.ID(k) != b.prey || !isTarget(view, k) {
		return 0, false
	}
	return k, true
}

// lineOfFire reports whether a shot along the bot's aim from (x, y) flies
// d px without meeting a wall (always, without a map).
func (b *Brain) lineOfFire(x, y, d float64) bool {
	if b.m == nil {
		return true
	}
	sin, cos := math.Sincos(b.aim)
	return b.m.Clear(x, y, x+d*cos, y+d*sin, arena.ProjectileRadius)
}

// circle returns the direction in which a bot at (x, y) circles its target
// at (tx, ty), which lies in direction (ux, uy): sideways, the way b.strafe
// says. With a map, if that way is walled or leads into cover the bot turns
// the other way, and if that one is too it reports false.
func (b *Brain) circle(x, y, ux, uy, tx, ty float64) (float64, float64, bool) {
	cx, cy := -uy*b.strafe, ux*b.strafe
	if b.m == nil || b.walkable(x, y, cx, cy, tx, ty) {
		return cx, cy, true
	}
	if b.walkable(x, y, -cx, -cy, tx, ty) {
		b.strafe = -b.strafe
		return -cx, -cy, true
	}
	return 0, 0, false
}

// backOff returns the direction in which a bot at (x, y) too close to its
// target at (tx, ty), in direction (ux, uy), moves: away from it, or with a
// map, if a wall is behind, sideways (circle), or, walled in, nowhere.
func (b *Brain) backOff(x, y, ux, uy, tx, ty float64) (float64, float64) {
	if b.m == nil || b.walkable(x, y, -ux, -uy, tx, ty) {
		return -ux, -uy
	}
	cx, cy, _ := b.circle(x, y, ux, uy, tx, ty)
	return cx, cy
}

// walkable reports whether a bot at (x, y) walking in direction (ux, uy)
// gets somewhere (walks) and still has a line of fire to (tx, ty) there.
func (b *Brain) walkable(x, y, ux, uy, tx, ty float64) bool {
	lx, ly, ok := b.walk(x, y, ux, uy)
	return ok && b.m.Clear(lx, ly, tx, ty, arena.ProjectileRadius)
}

// walks reports whether a bot at (x, y) walking in direction (ux, uy) for
// sightAhead ticks, sliding along walls as it would, gets at least half as
// far as in the open.
func (b *Brain) walks(x, y, ux, uy float64) bool {
	_, _, ok := b.walk(x, y, ux, uy)
	return ok
}

func (b *Brain) walk(x, y, ux, uy float64) (lx, ly float64, ok bool) {
	const ahead = sightAhead * arena.PlayerSpeed * arena.Dt
	lx, ly = b.m.Slide(x, y, ux*ahead, uy*ahead, arena.PlayerRadius)
	return lx, ly, math.Hypot(lx-x, ly-y) >= ahead/2
}

// follow returns the direction in which a bot at (x, y) walks to reach
// (gx, gy) over the map, and false if no route leads there (it then walks
// straight). The route is searched again when the bot's tile or the goal's
// changes, or after rerouteTicks; in between the bot keeps walking towards
// the waypoint chosen with it, whose line stays clear as it walks it.
func (b *Brain) follow(x, y, gx, gy float64) (float64, float64, bool) {
	from, to := tileOf(x, y), tileOf(gx, gy)
	if from != b.navFrom || to != b.navTo || b.tick-b.navAt >= rerouteTicks {
		b.navFrom, b.navTo, b.navAt = from, to, b.tick
		b.navOK = b.nav.find(from, to)
		if b.navOK {
			b.wayX, b.wayY = b.nav.waypoint(x, y, gx, gy)
		}
	}
	if !b.navOK {
		return 0, 0, false
	}
	wx, wy := b.wayX, b.wayY
	if b.nav.n < 2 { // in the goal's tile: straight to it
		wx, wy = gx, gy
	}
	ux, uy, _ := direction(x, y, wx, wy)
	return ux, uy, true
}

// roam wanders without firing (nothing to shoot at), where the bot does not
// know where it is.
func (b *Brain) roam() arena.Input {
	in := b.wander.Next()
	in.Buttons = 0
	if b.detour > 0 {
		b.detour--
		in.MoveX, in.MoveY = b.detourX, b.detourY
	}
	b.aim = in.Aim
	b.pushed = in.MoveX != 0 || in.MoveY != 0
	return in
}

// roamAt wanders without firing from (x, y): as roam without a map; with
// one, it walks the route to a random open tile, then to another.
func (b *Brain) roamAt(x, y float64) arena.Input {
	if b.m == nil {
		return b.roam()
	}
	in := b.wander.Next() // the look-around aim
	in.Buttons = 0
	if b.goal < 0 || tileOf(x, y) == b.goal || b.tick >= b.goalUntil {
		b.goal, b.goalUntil = b.openTile(), b.tick+wanderTicks
	}
	if b.detour > 0 {
		b.detour--
		in.MoveX, in.MoveY = b.detourX, b.detourY
	} else {
		gx, gy := tileCentre(b.goal)
		ux, uy, ok := b.follow(x, y, gx, gy)
		if !ok {
			b.goal = -1 // try another next tick
		}
		in.MoveX, in.MoveY = stick(ux, uy)
	}
	b.aim = in.Aim
	b.pushed = in.MoveX != 0 || in.MoveY != 0
	return in
}

// openTile returns a random open tile of the map (after a few tries, the
// middle's, which is always open).
func (b *Brain) openTile() int {
	for range 32 {
		tx, ty := b.wander.rng.IntN(arena.Tiles), b.wander.rng.IntN(arena.Tiles)
		if !b.m.Wall(tx, ty) {
			return ty*arena.Tiles + tx
		}
	}
	return tiles/2 + arena.Tiles/2
}

// checkStuck starts a detour after a few ticks of pushing without moving.
// With a map the detour heads where the bot walks freely (walks), if it
// finds such a way in a few tries, and the route is searched again after it.
func (b *Brain) checkStuck(x, y float64) {
	if b.pushed && math.Hypot(x-b.lastX, y-b.lastY) < 0.5 {
		b.stuck++
	} else {
		b.stuck = 0
	}
	b.lastX, b.lastY = x, y
	if b.stuck >= 5 && b.detour == 0 {
		var a float64
		for try := 0; try < 8; try++ {
			a = b.wander.rng.Float64() * 2 * math.Pi
			if b.m == nil || b.walks(x, y, math.Cos(a), math.Sin(a)) {
				break
			}
		}
		b.detourX, b.detourY = int8(127*math.Cos(a)), int8(127*math.Sin(a))
		b.detour = detourTicks
		b.stuck = 0
		b.navFrom = -1
	}
}

// stick turns a direction of length at most 1 into an input's stick.
func stick(ux, uy float64) (int8, int8) {
	return int8(math.Round(127 * ux)), int8(math.Round(127 * uy))
}

func isTarget(view *snapshot.Snapshot, j int) bool {
	switch view.Value(j, protocol.FieldKind) {
	case protocol.KindCreature:
		return true
	case protocol.KindPlayer:
		// Dead players and shielded ones (just spawned) take no damage.
		return view.Value(j, protocol.FieldState)&(protocol.StateDead|protocol.StateShielded) == 0
	}
	return false
}

func pos(view *snapshot.Snapshot, i int) (float64, float64) {
	return protocol.PosQuant.Dequantize(view.Value(i, protocol.FieldX)), protocol.PosQuant.Dequantize(view.Value(i, protocol.FieldY))
}

// angleDiff returns b - a wrapped into [-π, π).
func angleDiff(a, b float64) float64 {
	d := math.Mod(b-a+math.Pi, 2*math.Pi)
	if d < 0 {
		d += 2 * math.Pi
	}
	return d - math.Pi
}

// turn moves angle a towards b by at most step.
func turn(a, b, step float64) float64 {
	d := angleDiff(a, b)
	if math.Abs(d) <= step {
		return b
	}
	return a + math.Copysign(step, d)
}
