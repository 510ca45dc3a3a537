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
// Each tick it is in one mode (roam, fight, fetch, detour or wait): the
// package comment has them and when it takes each.
//
// A Brain is deterministic (same seed, same views, same inputs) and
// allocates nothing per tick: SetMap makes the route search's buffers
// (40 KB) once.
type Brain struct {
	// wander is the look-around aim and the walk without a map; its
	// generator is all of the brain's chance.
	wander *Wanderer

	aim     float64 // where it aims: it turns at most MaxTurn a tick
	tick    int     // the decisions made
	self    uint16
	hasSelf bool

	m      *arena.Map
	nav    *router
	course course // the route in use

	// The mode it is in, why, and the data each mode keeps from one tick
	// to the next (fetch and wait keep none).
	mode   mode
	why    reason
	roam   roamState
	fight  fightState
	detour detourState

	// What it remembers of what it saw: the target it went for last, how
	// long it has pushed without moving, and the spread guns and power-ups
	// lying about and its loadout, from its records (Read).
	prey  preyMemory
	watch stuckWatch
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
	b := &Brain{wander: NewWanderer(seed)}
	b.fight.strafe = 1
	b.course.from = -1
	b.roam.goal = -1
	return b
}

// SetSelf tells the brain its own slot, for a View that does not know it.
func (b *Brain) SetSelf(slot uint16) { b.self, b.hasSelf = slot, true }

// SetMap gives the brain the match's walls (arena.NewMap of the welcome's
// seed); nil takes them away. It makes the route search's buffers, once.
// The map is only read: bots of one match may share it.
func (b *Brain) SetMap(m *arena.Map) {
	b.m = m
	b.course.from, b.course.ok, b.roam.goal, b.prey.ok = -1, false, -1, false
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
// entity and the newest state it decoded: it makes out what the view
// shows (perceive), takes the mode that calls for (decide) and plays it.
func (b *Brain) Next(self uint16, view *snapshot.Snapshot) arena.Input {
	b.tick++
	var p percept
	b.perceive(&p, self, view)
	b.mode, b.why = decide(b.mode, b.detour.left, &p)
	if b.why == whyStuck {
		b.startDetour(p.x, p.y)
	}
	var in arena.Input
	switch b.mode {
	case modeRoam:
		b.roamTick(&p, &in)
	case modeFight:
		b.fightTick(&p, &in)
	case modeFetch:
		b.fetchTick(&p, &in)
	case modeDetour:
		b.detourTick(&p, &in)
	case modeWait:
		in.Aim = b.aim // dead: holds its aim, does nothing
	}
	b.watch.pushed = in.MoveX != 0 || in.MoveY != 0
	return in
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
