package scoreboard

import (
	"testing"

	"github.com/sightline-game/sightline/game/arena"
)

func TestViewLoadout(t *testing.T) {
	cases := []struct {
		name string
		l    arena.Loadout
		tick uint32
		want Loadout
	}{
		{"the gun", arena.Loadout{}, 100, Loadout{Weapon: "GUN"}},
		{"the spread gun", arena.Loadout{Weapon: arena.WeaponSpread, Shots: 7}, 100, Loadout{Weapon: "SPREAD", Shots: "7/20 shots"}},
		{"a fresh power-up", arena.Loadout{PowerEnd: 400}, 100, Loadout{Weapon: "GUN", Power: true, PowerLeft: 10, PowerFrac: 1}},
		{"half a power-up", arena.Loadout{Weapon: arena.WeaponSpread, Shots: 1, PowerEnd: 400}, 250,
			Loadout{Weapon: "SPREAD", Shots: "1/20 shots", Power: true, PowerLeft: 5, PowerFrac: 0.5}},
		{"a power-up at its end", arena.Loadout{PowerEnd: 400}, 400, Loadout{Weapon: "GUN"}},
		{"a power-up long gone", arena.Loadout{PowerEnd: 400}, 9000, Loadout{Weapon: "GUN"}},
	}
	for _, c := range cases {
		if got := ViewLoadout(c.l, c.tick, 30); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestKillVerb(t *testing.T) {
	for w, want := range map[arena.Weapon]string{arena.WeaponGun: "shot", arena.WeaponBite: "bit", arena.WeaponSpread: "blasted"} {
		if got := KillVerb(w); got != want {
			t.Errorf("weapon %d: %q, want %q", w, got, want)
		}
	}
}

func TestAccuracy(t *testing.T) {
	for _, c := range []struct {
		s    arena.Score
		want string
	}{{arena.Score{}, "—"}, {arena.Score{Shots: 3, Hits: 1}, "33%"}, {arena.Score{Shots: 40, Hits: 40}, "100%"}, {arena.Score{Shots: 9}, "0%"}} {
		if got := Accuracy(c.s); got != c.want {
			t.Errorf("%+v: %q, want %q", c.s, got, c.want)
		}
	}
}

// The results show between End and Next only: the best players first (at
// most Top), the player's own line and rank, and whole seconds counting
// down to the next round.
func TestIntermission(t *testing.T) {
	clock := arena.Clock{Round: 3, Start: 1000, End: 2000, Next: 2150}
	var rows []Row
	for id := arena.PlayerID(1); id <= 7; id++ {
		rows = append(rows, Row{id, arena.Score{Name: "p", Score: 10 - uint32(id), Kills: uint32(id), Shots: 10, Hits: 5}})
	}
	cases := []struct {
		tick uint32
		ok   bool
		next int
	}{{1999, false, 0}, {2000, true, 5}, {2001, true, 5}, {2120, true, 1}, {2149, true, 1}, {2150, false, 0}}
	for _, c := range cases {
		res, ok := Intermission(clock, rows, 6, c.tick, 30)
		if ok != c.ok || res.Next != c.next {
			t.Errorf("tick %d: shown %v, next in %d s; want %v, %d", c.tick, ok, res.Next, c.ok, c.next)
		}
		if !ok {
			continue
		}
		if res.Round != 3 || len(res.Top) != Top || res.Top[0].Player != 1 || !res.MeOK || res.Rank != 6 || res.Me.Kills != 6 {
			t.Errorf("tick %d: results %+v", c.tick, res)
		}
	}
	if _, ok := Intermission(arena.Clock{}, rows, 1, 2000, 30); ok {
		t.Error("results without a clock")
	}
	if _, _, ok := Find(rows, 99); ok {
		t.Error("a player with no row is found")
	}
}

func TestRoundClock(t *testing.T) {
	clock := arena.Clock{Round: 3, Start: 1000, End: 4660, Next: 4810} // a 122 s round, 5 s between rounds
	cases := []struct {
		tick uint32
		want Clock
	}{
		{1000, Clock{"2:02", "ROUND 3", false}},
		{1001, Clock{"2:02", "ROUND 3", false}}, // 121.97 s left: rounded up
		{4360, Clock{"0:10", "ROUND 3", true}},
		{4330, Clock{"0:11", "ROUND 3", false}},
		{4659, Clock{"0:01", "ROUND 3", true}},
		{4660, Clock{"0:05", "ROUND 4 IN", false}}, // the intermission counts down to the next round
		{4781, Clock{"0:01", "ROUND 4 IN", false}},
		{4809, Clock{"0:01", "ROUND 4 IN", false}},
		{4810, Clock{"0:00", "ROUND 3", true}}, // the next round is due, its clock not yet received
	}
	for _, c := range cases {
		if got := RoundClock(clock, c.tick, 30); got != c.want {
			t.Errorf("tick %d: %+v, want %+v", c.tick, got, c.want)
		}
	}
}
