package desktop

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/desktop/scoreboard"
	"github.com/sightline-game/sightline/game/protocol"
)

// recordState is what the match's replica records say, re-read after each
// poll: the round clock, every player's name and score, the pickups lying on
// the floor, and the player's own loadout.
type recordState struct {
	clock    arena.Clock
	hasClock bool
	scores   []scoreboard.Row // best first
	pickups  []arena.Pickup
	own      ownLoadout // the player's own loadout record (loadout.go)
	bad      int        // records that did not parse (counted, never shown)
}

// read replaces the state with the client's records.
func (r *recordState) read(g *Game) {
	r.hasClock, r.own = false, ownLoadout{}
	r.scores, r.pickups = r.scores[:0], r.pickups[:0]
	g.cl.Records(func(id uint32, gen uint16, payload []byte) {
		kind, index := protocol.RecordKind(id)
		switch kind {
		case protocol.RecordClock:
			if c, err := protocol.ParseClock(payload); err == nil {
				r.clock, r.hasClock = c, true
			} else {
				r.bad++
			}
		case protocol.RecordScore:
			if s, err := protocol.ParseScore(payload); err == nil {
				r.scores = append(r.scores, scoreboard.Row{Player: arena.PlayerID(index), Score: s})
			} else {
				r.bad++
			}
		case protocol.RecordPickup:
			if p, err := protocol.ParsePickup(payload); err == nil {
				r.pickups = append(r.pickups, p)
			} else {
				r.bad++
			}
		case protocol.RecordLoadout:
			r.readLoadout(g, index, payload)
		}
	})
	slices.SortFunc(r.scores, func(a, b scoreboard.Row) int {
		if c := cmp.Compare(b.Score.Score, a.Score.Score); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Kills, a.Kills); c != 0 {
			return c
		}
		return cmp.Compare(a.Player, b.Player)
	})
}

// score returns a player's row, if it has one.
func (r *recordState) score(id arena.PlayerID) (scoreboard.Row, int, bool) {
	return scoreboard.Find(r.scores, id)
}

// name returns a player's name: from its score record, else "player N".
func (r *recordState) name(id arena.PlayerID) string {
	if s, _, ok := r.score(id); ok && s.Name != "" {
		return s.Name
	}
	return "player " + strconv.Itoa(int(id))
}
