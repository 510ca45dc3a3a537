package brain

import "github.com/sightline-game/sightline/game/arena"

// mode is what a bot is doing this tick; the package comment has the
// table of them and of the transitions, which decide makes.
type mode uint8

const (
	// modeRoam: nothing to shoot at; it looks around and walks to a
	// random open tile, then another (roam.go).
	modeRoam mode = iota
	// modeFight: it aims at its target, shoots when it may, and keeps its
	// distance: closes in, backs off or circles (fight.go).
	modeFight
	// modeFetch: it walks to a spread gun or power-up, shooting at its
	// target on the way (fetch.go).
	modeFetch
	// modeDetour: it pushed without moving; it walks one way for
	// detourTicks, aiming as it would otherwise (detour.go).
	modeDetour
	// modeWait: it is dead; it waits to respawn.
	modeWait
)

var modeNames = [...]string{modeRoam: "roam", modeFight: "fight", modeFetch: "fetch", modeDetour: "detour", modeWait: "wait"}

func (m mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return "mode?"
}

// reason says why decide took a mode.
type reason string

// The reasons for the modes, one for each rule of decide.
const (
	whyLostDetour reason = "not in its own view: the detour goes on"
	whyLost       reason = "not in its own view: wanders"
	whyDead       reason = "dead: waits"
	whyDetouring  reason = "the detour goes on"
	whyStuck      reason = "pushed without moving: detours"
	whyItem       reason = "an item it wants within reach"
	whyTarget     reason = "a target"
	whyNothing    reason = "nothing to shoot at"
)

// decide returns the mode for this tick and why, from the mode of the
// last tick (cur), the ticks left of the detour under way (detourLeft) and
// what the bot perceives: the first rule that holds.
func decide(cur mode, detourLeft int, p *percept) (mode, reason) {
	detouring := detourLeft > 0
	switch {
	case !p.located && detouring:
		return modeDetour, whyLostDetour
	case !p.located:
		return modeRoam, whyLost
	case p.dead:
		return modeWait, whyDead
	case detouring:
		return modeDetour, whyDetouring
	case p.stuck:
		return modeDetour, whyStuck
	case p.item:
		return modeFetch, whyItem
	case p.target >= 0:
		return modeFight, whyTarget
	}
	return modeRoam, whyNothing
}

// act plays the bot's mode for this tick.
func (b *Brain) act(p *percept) arena.Input {
	switch b.mode {
	case modeFight:
		return b.fightTick(p)
	case modeFetch:
		return b.fetchTick(p)
	case modeDetour:
		return b.detourTick(p)
	case modeWait:
		return arena.Input{Aim: b.aim} // dead: holds its aim, does nothing
	}
	return b.roamTick(p)
}
