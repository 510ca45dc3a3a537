package arena

import (
	"math"
	"math/rand/v2"
	"strings"
	"unicode/utf8"
)

// MaxNameBytes is the longest name a player may have, in bytes of UTF-8.
const MaxNameBytes = 24

// World is a match: the map, its creatures, players, projectiles and health
// packs, the round clock and the scores. One goroutine calls it (the
// server's tick loop); nothing here is safe for concurrent use.
//
// Entities occupy fixed ranges of snapshot slots: creatures 0..C-1, players
// C..C+P-1 (P = Config.MaxPlayers), projectiles the next P*ShotsInFlight
// slots. A player keeps its slot for its whole connection. Every new
// occupant of a slot (a respawned creature or player, a new projectile, a
// new player) gets the slot's next generation, 4 bits wrapping, so clients
// see a removal and a new entity, never a teleport.
//
// Everything random comes from one PCG seeded by Config.Seed, and every loop
// runs in slot order, so the same seed and the same calls give the same
// world (Hash).
type World struct {
	cfg  Config
	m    *Map
	pcg  *rand.PCG
	rng  *rand.Rand
	tick uint32

	playerBase, shotBase int     // first slots of players and projectiles
	gens                 []uint8 // generation of each slot in use
	creatures            []creature
	players              []player // by slot - playerBase
	byID                 map[PlayerID]int32
	shots                []shot // by slot - shotBase
	free                 slotRing
	pickups              []pickup
	grid                 grid
	past                 rewind   // the targets' recent poses, for shots judged in the past
	steps                arrivals // when the steps ran against their schedule (StepTime)

	round                uint32
	roundStart, roundEnd uint32
	nextStart            uint32 // the tick the next round starts on
	intermission         bool   // the round ended and the next has not started
	clockDirty           bool
	removed              []PlayerID // score records to delete

	events []Event // since the last TakeEvents
	stats  Stats

	// judged is how the latest hit on a player was judged (the hit test
	// sets it, damagePlayer reports it with a kill); seenClamped says
	// whether the latest seenFrom cut a view to the cap.
	judged      Judged
	seenClamped bool
}

type creature struct {
	x, y, heading float64
	walking       bool
	dead          bool
	health        int
	respawnAt     uint32
	hurtUntil     uint32
	biteAt        uint32 // earliest tick of the next bite
}

type queuedInput struct {
	seq    uint32
	dx, dy float64 // checked movement direction, length at most 1
	aim    float64 // in [0, 2π), valid if aimOK
	aimOK  bool
	fire   bool
	dash   bool
	view   View   // what the client drew when it made the input
	floor  uint64 // the oldest view it may claim, 256ths of a tick (viewbound.go); 0: none
	early  bool   // fire carried over from an input trimmed before it: pressed a tick earlier
	// carried says the fire was carried over from an input dropped before
	// it (carryPress), whose sequence and aim follow: the shot is that
	// input's, as its client predicted it.
	carried   bool
	fireSeq   uint32
	fireAim   float64
	fireAimOK bool
	at        uint32 // the world's tick when it arrived
}

type player struct {
	id     PlayerID
	active bool
	x, y   float64
	aim    float64
	dx, dy float64 // direction of the last consumed input
	moving bool    // moved on the last tick
	// shieldUntil is the first tick the player can be hurt again after
	// spawning; firing ends the shield at once.
	shieldUntil uint32
	dead        bool
	health      int
	respawnAt   uint32
	hurtUntil   uint32
	lastShot    uint32 // the tick of the last shot
	lastShotSeq uint32 // the input that fired it
	trimmed     bool   // the queue was trimmed since the last shot (trimQueue)
	shotWait    uint32 // the interval of the weapon that fired the last shot
	hasShot     bool
	dash        Dash

	// The loadout: spread shots left (0: the gun) and the power-up's end
	// (Loadout.PowerEnd); loadDirty: its record changed.
	spread    uint32
	powerEnd  uint32
	loadDirty bool
	// Accuracy in the current round: projectiles fired and those that hit,
	// and as the score record last published them.
	shots, hits       uint32
	pubShots, pubHits uint32

	applied uint32 // seq of the newest consumed input
	newest  uint32 // newest seq accepted (queued or consumed)
	queue   [InputQueue]queuedInput
	queued  int // queue[:queued], sorted by seq
	spare   int // steps in a row that began with three or more inputs queued
	// lastSpare is how many inputs waited after the last step took one;
	// -1 if there was none to take (InputSpare).
	lastSpare int
	// arrivals estimates how evenly the player's inputs come, for the
	// bound on the views they claim.
	arrivals arrivals

	kills, deaths, score uint32
	name                 string // at most MaxNameBytes
	dirty                bool   // score record changed
}

type shot struct {
	live      bool
	x, y      float64
	x0, y0    float64 // where it was fired from
	flown     uint32  // ticks flown
	vx, vy    float64 // px per tick
	heading   float64
	owner     PlayerID
	ownerSlot int32  // the owner's entity slot, never hit by its own shot; -1 once the owner left
	expires   uint32 // the first tick it is gone
	damage    int    // fixed when fired (doubled by a power-up)
	weapon    Weapon // WeaponGun or WeaponSpread
	seq       uint32 // the owner's input that fired it
	// seen is what the shooter drew when it fired, if rewound: the shot
	// is judged against the targets as they were drawn then (rewind.go).
	seen    View
	since   uint64 // 256ths of a tick: the flight is judged from here (seenFrom); 0: from seen
	rewound bool
	clamped bool // the view claimed was older than the rewind cap
}

type pickup struct {
	kind      uint8 // PickupHealth, PickupSpread or PickupPower
	live      bool
	x, y      float64
	gen       uint16 // record generation, new on each respawn
	respawnAt uint32
	dirty     bool
}

// slotRing is a FIFO of free projectile slots: the slot freed longest ago
// is reused first, so a slot's generations cycle as slowly as they can.
type slotRing struct {
	buf        []int32
	head, size int
}

func (r *slotRing) push(v int32) {
	r.buf[(r.head+r.size)%len(r.buf)] = v
	r.size++
}

func (r *slotRing) pop() (int32, bool) {
	if r.size == 0 {
		return 0, false
	}
	v := r.buf[r.head]
	r.head = (r.head + 1) % len(r.buf)
	r.size--
	return v, true
}

// NewWorld returns a world at tick 0, round 1, with its creatures and health
// packs placed and no players.
func NewWorld(cfg Config) (*World, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	nShots := cfg.MaxPlayers * ShotsInFlight
	w := &World{
		cfg:        cfg,
		m:          NewMap(cfg.Seed),
		pcg:        rand.NewPCG(cfg.Seed, 0x61_72_65_6e_61),
		playerBase: cfg.Creatures,
		shotBase:   cfg.Creatures + cfg.MaxPlayers,
		creatures:  make([]creature, cfg.Creatures),
		players:    make([]player, cfg.MaxPlayers),
		byID:       make(map[PlayerID]int32, cfg.MaxPlayers),
		shots:      make([]shot, nShots),
		free:       slotRing{buf: make([]int32, nShots)},
		pickups:    make([]pickup, cfg.allPickups()),
		round:      1,
		roundEnd:   uint32(cfg.RoundTicks),
		nextStart:  uint32(cfg.RoundTicks + cfg.IntermissionTicks),
		clockDirty: true,
		events:     make([]Event, 0, 256),
	}
	w.rng = rand.New(w.pcg)
	w.gens = make([]uint8, w.shotBase+nShots)
	w.grid.init(cfg.Creatures + cfg.MaxPlayers)
	if cfg.RewindTicks > 0 {
		w.past.init(cfg.Creatures + cfg.MaxPlayers)
	}
	for i := range w.shots {
		w.free.push(int32(i))
	}
	for i := range w.creatures {
		c := &w.creatures[i]
		c.x, c.y = w.m.OpenSpot(w.rng, CreatureRadius)
		c.heading = w.rng.Float64() * 2 * math.Pi
		c.walking = w.rng.Float64() < 0.15
		c.health = CreatureHealth
	}
	for i := range w.pickups {
		p := &w.pickups[i]
		switch {
		case i >= cfg.Pickups+cfg.SpreadGuns:
			p.kind = PickupPower
		case i >= cfg.Pickups:
			p.kind = PickupSpread
		}
		p.x, p.y = w.pickupSpot()
		p.live, p.dirty = true, true
	}
	return w, nil
}

// pickupSpot returns an open spot for a pickup, on whole pixels (its
// record carries whole pixels).
func (w *World) pickupSpot() (float64, float64) {
	for {
		x, y := w.m.OpenSpot(w.rng, PickupRadius)
		x, y = math.Round(x), math.Round(y)
		if !w.m.Blocked(x, y, PickupRadius) {
			return x, y
		}
	}
}

// Map returns the world's walls.
func (w *World) Map() *Map { return w.m }

// MapSeed returns the seed a client passes to NewMap to build the same walls.
func (w *World) MapSeed() uint64 { return w.cfg.Seed }

// Config returns the world's configuration, defaults applied.
func (w *World) Config() Config { return w.cfg }

// Tick returns the number of Steps taken.
func (w *World) Tick() uint32 { return w.tick }

// Round returns the current round (1 for the first) and the tick it ends on.
func (w *World) Round() (round, endTick uint32) { return w.round, w.roundEnd }

// Clock returns the round clock, as its record carries it.
func (w *World) Clock() Clock {
	return Clock{Round: w.round, Start: w.roundStart, End: w.roundEnd, Next: w.nextStart}
}

// Intermission reports whether the world is between a round's end and the
// next round's start: nobody fires, takes damage or takes a pickup.
func (w *World) Intermission() bool { return w.intermission }

// Stats returns the world's counters.
func (w *World) Stats() Stats { return w.stats }

// PlayerInfo is what the world knows of a player, for tests, tools and logs.
type PlayerInfo struct {
	Slot                 uint16
	Generation           uint16
	X, Y, Aim            float64
	Health               int
	Dead                 bool
	Dashing              bool // the player's next move is a dash's
	Kills, Deaths, Score uint32
	Shots, Hits          uint32 // accuracy in the current round
	Loadout              Loadout
	Name                 string
}

// Player returns the state of player id, if it is in the match.
func (w *World) Player(id PlayerID) (PlayerInfo, bool) {
	i, ok := w.byID[id]
	if !ok {
		return PlayerInfo{}, false
	}
	p := &w.players[i]
	slot := w.playerBase + int(i)
	return PlayerInfo{
		Slot: uint16(slot), Generation: uint16(w.gens[slot]),
		X: p.x, Y: p.y, Aim: p.aim, Health: p.health, Dead: p.dead, Dashing: p.dash.Dashing(),
		Kills: p.kills, Deaths: p.deaths, Score: p.score,
		Shots: p.shots, Hits: p.hits, Loadout: p.loadout(),
		Name: p.name,
	}, true
}

// AddPlayer gives player id the lowest free player slot, with the slot's
// next generation, full health, a spawn shield and a spot out of the other
// players' sight (spawnSpot).
// It does nothing if id is already in the match, is 0 or above MaxPlayerID,
// or every slot is taken (Stats.PlayersRefused).
func (w *World) AddPlayer(id PlayerID) {
	if _, ok := w.byID[id]; ok {
		return
	}
	if id == 0 || id > MaxPlayerID {
		w.stats.PlayersRefused++
		return
	}
	for i := range w.players {
		p := &w.players[i]
		if p.active {
			continue
		}
		*p = player{id: id, active: true, health: PlayerHealth, dirty: true, loadDirty: true, shieldUntil: w.tick + SpawnShieldTicks}
		p.x, p.y = w.spawnSpot(i)
		w.bumpGen(w.playerBase + i)
		w.byID[id] = int32(i)
		return
	}
	w.stats.PlayersRefused++
}

// RemovePlayer frees the player's slot (its next user gets a new generation)
// and deletes its score and loadout records. Its projectiles fly on; their hits no
// longer score.
func (w *World) RemovePlayer(id PlayerID) {
	i, ok := w.byID[id]
	if !ok {
		return
	}
	w.players[i] = player{}
	delete(w.byID, id)
	for k := range w.shots { // its shots may hit the slot's next player
		if s := &w.shots[k]; s.live && s.ownerSlot == int32(w.playerBase)+i {
			s.ownerSlot = -1
		}
	}
	if len(w.removed) >= maxRemoved { // nobody collects records: forget the oldest
		w.removed = append(w.removed[:0], w.removed[1:]...)
	}
	w.removed = append(w.removed, id)
}

// maxRemoved bounds the deletions kept for ChangedRecords.
const maxRemoved = 1024

// SetName sets the name on the player's score record: at most MaxNameBytes
// bytes of valid UTF-8, cut at a character boundary. The caller has cleaned
// it (no control characters).
func (w *World) SetName(id PlayerID, name string) {
	i, ok := w.byID[id]
	if !ok {
		return
	}
	p := &w.players[i]
	p.name, p.dirty = strings.Clone(CutName(name)), true
}

// CutName returns s as a player's name: invalid UTF-8 dropped, then cut
// to at most MaxNameBytes bytes at a character boundary.
func CutName(s string) string {
	s = strings.ToValidUTF8(s, "")
	if len(s) <= MaxNameBytes {
		return s
	}
	n := MaxNameBytes
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// ApplyInput queues player id's input number seq for a coming tick. It is
// dropped, and counted, if id is not in the match, if seq was already
// consumed or is already queued, or if it is more than MaxInputAhead past
// the newest seq seen; when InputQueue inputs wait, the oldest is dropped.
// The input is checked here: the stick is clamped to length 1 (MoveIntent),
// unknown buttons are ignored, a non-finite aim keeps the previous aim; such
// inputs count as clamped.
func (w *World) ApplyInput(id PlayerID, seq uint32, in Input) {
	i, ok := w.byID[id]
	if !ok {
		w.stats.DroppedUnknown++
		return
	}
	p := &w.players[i]
	switch {
	case seq <= p.applied:
		w.stats.DroppedOld++
		return
	case p.newest != 0 && seq > p.newest && seq-p.newest > MaxInputAhead:
		w.stats.DroppedTooFar++
		return
	}
	at := p.queued // insertion point, keeping the queue sorted by seq
	for at > 0 && p.queue[at-1].seq >= seq {
		at--
	}
	if at < p.queued && p.queue[at].seq == seq {
		w.stats.DroppedDuplicate++
		return
	}
	q := checkInput(seq, in)
	if q.clamped {
		w.stats.InputsClamped++
	}
	w.stats.InputsQueued++
	if p.queued == InputQueue {
		// Full: drop the oldest, which may be the new one itself; its
		// fire and dash carry over to the next.
		w.stats.DroppedQueueFull++
		if at == 0 {
			carryPress(&q.queuedInput, &p.queue[0], false)
			return
		}
		p.dropOldest(false)
		at--
	}
	copy(p.queue[at+1:p.queued+1], p.queue[at:p.queued])
	q.at = w.tick
	p.arrivals.observe(seq, w.tick, &w.steps)
	q.floor = p.viewFloor(in.Acked)
	p.queue[at] = q.queuedInput
	p.queued++
	p.newest = max(p.newest, seq)
}

type checkedInput struct {
	queuedInput
	clamped bool
}

func checkInput(seq uint32, in Input) checkedInput {
	q := checkedInput{queuedInput: queuedInput{seq: seq, fire: in.Buttons&ButtonFire != 0, dash: in.Buttons&ButtonDash != 0, view: in.View}}
	q.dx, q.dy = MoveIntent(in.MoveX, in.MoveY)
	mx, my := float64(in.MoveX), float64(in.MoveY)
	q.clamped = in.MoveX == math.MinInt8 || in.MoveY == math.MinInt8 || mx*mx+my*my > 127*127 ||
		in.Buttons&^knownButtons != 0
	if a := in.Aim; !math.IsNaN(a) && !math.IsInf(a, 0) {
		q.aim, q.aimOK = wrapAngle(a), true
	} else {
		q.clamped = true
	}
	return q
}

// AppliedInput returns the seq of the newest input of player id that a Step
// consumed (0 if none, or if id is not in the match).
func (w *World) AppliedInput(id PlayerID) uint32 {
	if i, ok := w.byID[id]; ok {
		return w.players[i].applied
	}
	return 0
}

// InputSpare returns how many of player id's inputs waited in its queue
// after the last step took one, or -1 if there was none to take (the
// input came late, and the player walked on as before): what its client's
// input clock keeps a little above 0 (session.SnapshotHeader.Spare). ok
// is false if id is not in the match.
func (w *World) InputSpare(id PlayerID) (n int, ok bool) {
	if i, ok := w.byID[id]; ok {
		return w.players[i].lastSpare, true
	}
	return 0, false
}

// Pose is where a player is and aims, and the slot of its entity.
type Pose struct {
	Slot      uint16
	X, Y, Aim float64
}

// Pose returns where player id is and aims, if it is in the match.
func (w *World) Pose(id PlayerID) (Pose, bool) {
	i, ok := w.byID[id]
	if !ok {
		return Pose{}, false
	}
	p := &w.players[i]
	return Pose{Slot: uint16(w.playerBase + int(i)), X: p.x, Y: p.y, Aim: p.aim}, true
}

// bumpGen gives slot its next generation for a new occupant.
func (w *World) bumpGen(slot int) { w.gens[slot] = (w.gens[slot] + 1) & maxGen }
