package sound

import (
	"time"

	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// Snapshot tracking.
const (
	// maxGap is the most ticks between two snapshots fed that still count
	// as consecutive: after a longer gap (or at the first snapshot) every
	// entity would look new, so that snapshot plays nothing.
	maxGap = 15
	// muzzleReach is how far from a player (in px) a new projectile may
	// appear and still count as fired: it spawns at the shooter's centre and
	// flies at most a tick or two before a snapshot shows it. Projectiles
	// that come into view from afar are not shots.
	muzzleReach = 72
	// volleyReach groups projectiles that appear in one snapshot within
	// this distance of each other into one volley (the spread gun's fan).
	volleyReach = 40
	// markTicks is how far (in ticks) a Hit or Kill event's tick and the
	// snapshot tick that showed it may differ.
	markTicks = 2
)

// entState is what the last snapshot fed showed of an entity slot.
type entState struct {
	seen   uint32 // the snapshot count when last seen; 0: never
	gen    uint16
	kind   uint8
	state  uint8
	health uint8
	x, y   float64
}

// mark is a player seen taking damage (a wound) or dying (a fall) in a
// snapshot: what a Hit or Kill event is placed at.
type mark struct {
	tick uint32
	x, y float64
	drop int  // health lost
	zero bool // health reached 0
	fall bool
	live bool // not yet used by an event
}

type point struct{ x, y float64 }

// worldState is the Mixer's memory of the snapshots.
type worldState struct {
	ents      []entState // by slot
	count     uint32     // snapshots fed
	tick      uint32     // the newest fed
	self      int        // the own entity's slot, -1 if unknown
	marks     [64]mark
	nextMark  int
	fresh     []point  // new projectiles in this snapshot
	grouped   []bool   // scratch beside fresh
	players   []point  // live players in this snapshot
	creatures []uint16 // creature slots in the last snapshot
	scratch   []uint16
}

func (w *worldState) init() {
	w.ents = make([]entState, protocol.MaxEntities)
	w.self = -1
	w.fresh = make([]point, 0, 64)
	w.grouped = make([]bool, 0, 64)
	w.players = make([]point, 0, 64)
	w.creatures = make([]uint16, 0, 256)
	w.scratch = make([]uint16, 0, 256)
}

// SetSelf tells the Mixer the own player's id (as events name players) and
// its entity's slot (as snapshots do).
func (m *Mixer) SetSelf(player uint32, slot uint16) {
	m.events.me, m.events.haveMe = player, true
	m.world.self = int(slot)
}

// Snapshot takes a newly decoded snapshot of tick: call it once per tick the
// client takes in, in tick order (older or repeated ticks are ignored). It
// plays shots and spreads for projectiles that appeared next to a player,
// hits and deaths of creatures, and places waiting Hit and Kill events on
// the players it saw take damage or die.
func (m *Mixer) Snapshot(now time.Time, tick uint32, s *snapshot.Snapshot) {
	w := &m.world
	if w.count > 0 && int32(tick-w.tick) <= 0 {
		return
	}
	quiet := w.count == 0 || tick-w.tick > maxGap
	w.count++
	w.tick = tick
	w.fresh, w.players, w.scratch = w.fresh[:0], w.players[:0], w.scratch[:0]
	for i := range s.Len() {
		id := s.ID(i)
		if int(id.Index) >= len(w.ents) {
			continue
		}
		row := s.Row(i)
		cur := entState{
			seen: w.count, gen: id.Generation,
			kind: uint8(row[protocol.FieldKind]), state: uint8(row[protocol.FieldState]), health: uint8(row[protocol.FieldHealth]),
			x: protocol.PosQuant.Dequantize(row[protocol.FieldX]), y: protocol.PosQuant.Dequantize(row[protocol.FieldY]),
		}
		prev := &w.ents[id.Index]
		was := prev.seen == w.count-1 && prev.gen == cur.gen && prev.kind == cur.kind
		switch cur.kind {
		case protocol.KindPlayer:
			if cur.state&protocol.StateDead == 0 {
				w.players = append(w.players, point{cur.x, cur.y})
			}
			if was && !quiet && int(id.Index) != w.self {
				if cur.health < prev.health {
					w.mark(mark{tick: tick, x: cur.x, y: cur.y, drop: int(prev.health - cur.health), zero: cur.health == 0})
				}
				if cur.state&protocol.StateDead != 0 && prev.state&protocol.StateDead == 0 {
					w.mark(mark{tick: tick, x: cur.x, y: cur.y, fall: true})
				}
			}
		case protocol.KindCreature:
			w.scratch = append(w.scratch, id.Index)
			if was && !quiet && cur.health < prev.health {
				m.playAt(now, Hit, cur.x, cur.y, 1)
			}
		case protocol.KindProjectile:
			if !was && (m.hidden == nil || !m.hidden(id)) {
				w.fresh = append(w.fresh, point{cur.x, cur.y})
			}
		}
		*prev = cur
	}
	if !quiet {
		// A hurt creature gone from the snapshot was killed: the world
		// lists live creatures only.
		for _, slot := range w.creatures {
			if e := &w.ents[slot]; e.seen != w.count && e.state&protocol.StateHurt != 0 {
				m.playAt(now, Death, e.x, e.y, 1)
			}
		}
		m.volleys(now)
	}
	w.creatures, w.scratch = w.scratch, w.creatures
	m.resolve(now)
}

// mark records a wound or a fall, overwriting the oldest.
func (w *worldState) mark(k mark) {
	k.live = true
	w.marks[w.nextMark] = k
	w.nextMark = (w.nextMark + 1) % len(w.marks)
}

// volleys plays the projectiles that appeared in this snapshot next to a
// player: one shot for a lone projectile, one spread for several close
// together.
func (m *Mixer) volleys(now time.Time) {
	w := &m.world
	w.grouped = w.grouped[:0]
	for range w.fresh {
		w.grouped = append(w.grouped, false)
	}
	for i, p := range w.fresh {
		if w.grouped[i] || !w.nearPlayer(p) {
			continue
		}
		n, sx, sy := 1, p.x, p.y
		for j := i + 1; j < len(w.fresh); j++ {
			q := w.fresh[j]
			if !w.grouped[j] && dist2(p, q) <= volleyReach*volleyReach {
				w.grouped[j] = true
				n++
				sx, sy = sx+q.x, sy+q.y
			}
		}
		if n == 1 {
			m.playAt(now, Shot, p.x, p.y, 1)
		} else {
			m.playAt(now, Spread, sx/float64(n), sy/float64(n), 1)
		}
	}
}

// nearPlayer reports whether p is within muzzle reach of a live player.
func (w *worldState) nearPlayer(p point) bool {
	for _, q := range w.players {
		if dist2(p, q) <= muzzleReach*muzzleReach {
			return true
		}
	}
	return false
}

func dist2(a, b point) float64 {
	dx, dy := a.x-b.x, a.y-b.y
	return dx*dx + dy*dy
}
