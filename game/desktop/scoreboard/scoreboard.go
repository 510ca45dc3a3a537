// Package scoreboard is what the HUD says about scores, weapons and the
// intermission, worked out from the records a client holds: the rows of
// the scoreboard, the player's loadout as the HUD shows it, the kill feed's
// verbs and the results between two rounds. It draws nothing and needs no
// display, so it is tested like any other logic; package game/desktop
// draws what it returns.
package scoreboard

import (
	"fmt"
	"math"

	"github.com/sightline-game/sightline/game/arena"
)

// Row is one line of the scoreboard: a player and its score record.
type Row struct {
	Player arena.PlayerID
	arena.Score
}

// Find returns player id's row in rows (best first) and its rank from 1.
func Find(rows []Row, id arena.PlayerID) (Row, int, bool) {
	for i, r := range rows {
		if r.Player == id {
			return r, i + 1, true
		}
	}
	return Row{}, 0, false
}

// Loadout is what the HUD shows of the player's loadout at a tick.
type Loadout struct {
	Weapon    string  // "GUN" or "SPREAD"
	Shots     string  // "7/20 shots" with the spread gun, "" with the gun
	Power     bool    // the power-up is on
	PowerLeft float64 // seconds of it left
	PowerFrac float64 // the share of its time left, 0..1
}

// ViewLoadout returns what the HUD shows of l at tick, at tickRate Hz.
func ViewLoadout(l arena.Loadout, tick uint32, tickRate float64) Loadout {
	v := Loadout{Weapon: "GUN"}
	if l.Weapon == arena.WeaponSpread {
		v.Weapon, v.Shots = "SPREAD", fmt.Sprintf("%d/%d shots", l.Shots, arena.SpreadShots)
	}
	if l.Powered(tick) {
		left := l.PowerEnd - tick
		v.Power = true
		v.PowerLeft = float64(left) / tickRate
		v.PowerFrac = min(float64(left)/arena.PowerTicks, 1)
	}
	return v
}

// KillVerb is the kill feed's verb for a weapon.
func KillVerb(w arena.Weapon) string {
	switch w {
	case arena.WeaponBite:
		return "bit"
	case arena.WeaponSpread:
		return "blasted"
	}
	return "shot"
}

// Accuracy is a score's hits per shot as a percentage, or a dash before
// the first shot.
func Accuracy(s arena.Score) string {
	if s.Shots == 0 {
		return "—"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(s.Hits)/float64(s.Shots))
}

// Top is how many of the best players the results list.
const Top = 5

// Results is what the intermission screen shows: the round that ended,
// its best players (the score records keep the ended round's scores until
// the next round starts), the player's own line, and the seconds until the
// next round.
type Results struct {
	Round uint32
	Top   []Row
	Me    Row
	MeOK  bool
	Rank  int
	Next  int // whole seconds until the next round, counting down
}

// Intermission returns the results to show at tick, from the clock record
// and the rows (best first) the client holds, and false when the clock
// says no intermission is running.
func Intermission(clock arena.Clock, rows []Row, me arena.PlayerID, tick uint32, tickRate float64) (Results, bool) {
	if !clock.Intermission(tick) {
		return Results{}, false
	}
	res := Results{
		Round: clock.Round,
		Top:   rows[:min(len(rows), Top)],
		Next:  int(math.Ceil(float64(clock.UntilNext(tick)) / tickRate)),
	}
	res.Me, res.Rank, res.MeOK = Find(rows, me)
	return res, true
}

// Clock is the round clock as the HUD shows it.
type Clock struct {
	Time   string // minutes and seconds, "2:05"
	Label  string // under the time: "ROUND 3", or "ROUND 4 IN" between rounds
	Urgent bool   // the round's last ten seconds
}

// RoundClock returns the round clock at tick, a snapshot's: the time left
// in the round, rounded up to whole seconds, or during the intermission
// the time until the next round starts, so the clock never stands at 0:00
// while the results count down.
func RoundClock(c arena.Clock, tick uint32, tickRate float64) Clock {
	if c.Intermission(tick) {
		secs := int(math.Ceil(float64(c.UntilNext(tick)) / tickRate))
		return Clock{Time: minutes(secs), Label: fmt.Sprintf("ROUND %d IN", c.Round+1)}
	}
	secs := int(math.Ceil(float64(c.Remaining(tick)) / tickRate))
	return Clock{Time: minutes(secs), Label: fmt.Sprintf("ROUND %d", c.Round), Urgent: secs <= 10}
}

// minutes writes secs as m:ss.
func minutes(secs int) string { return fmt.Sprintf("%d:%02d", secs/60, secs%60) }
