package brain

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

// reason says why decide took a mode: one for each of its rules.
type reason uint8

const (
	whyNothing reason = iota
	whyLostDetour
	whyLost
	whyDead
	whyDetouring
	whyStuck
	whyItem
	whyTarget
)

var reasons = [...]string{
	whyNothing:    "nothing to shoot at",
	whyLostDetour: "not in its own view: the detour goes on",
	whyLost:       "not in its own view: wanders",
	whyDead:       "dead: waits",
	whyDetouring:  "the detour goes on",
	whyStuck:      "pushed without moving: detours",
	whyItem:       "an item it wants within reach",
	whyTarget:     "a target",
}

func (r reason) String() string {
	if int(r) < len(reasons) {
		return reasons[r]
	}
	return "reason?"
}

// decide returns the mode for this tick and why, from the mode of the
// last tick (cur), the ticks its detour has left (detourLeft, if cur is
// modeDetour) and what the bot perceives: the first rule that holds. A
// detour goes on until its ticks run out or the bot dies; whyStuck starts
// a new one.
func decide(cur mode, detourLeft int, p *percept) (mode, reason) {
	detouring := cur == modeDetour && detourLeft > 0
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
