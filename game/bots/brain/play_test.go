package brain

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/sightline-game/sightline/internal/figures/figuretest"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/game/server"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// How the bots of a test match play.
type style int

const (
	wandering style = iota
	blind           // brains without the map
	sighted         // brains with the map
	fetching        // brains with the map and the records: the pickups and their loadouts
)

// worldRecords is what a bot's client holds of the world's records once
// they have arrived: all of them.
type worldRecords struct {
	m  *server.Match
	id arena.PlayerID
}

func (r worldRecords) Player() (arena.PlayerID, bool) { return r.id, true }

func (r worldRecords) Records(fn func(id uint32, gen uint16, payload []byte)) {
	r.m.AllRecords(func(id uint32, gen uint16, payload []byte, deleted bool) {
		if !deleted {
			fn(id, gen, payload)
		}
	})
}

// playArena plays bots players in a real World of cfg for ticks, each fed
// the world's own snapshot, and calls each (if not nil) after every Step
// with the bot's index, its input and its state after the Step. It returns
// the world's counters.
func playArena(t testing.TB, cfg arena.Config, bots, ticks int, how style, each func(i int, in arena.Input, p arena.PlayerInfo)) arena.Stats {
	w, err := newMatch(cfg)
	if err != nil {
		t.Fatal(err)
	}
	brains := make([]*Brain, bots)
	wanderers := make([]*Wanderer, bots)
	for i := range bots {
		w.AddPlayer(arena.PlayerID(i + 1))
		brains[i], wanderers[i] = New(uint64(i)), NewWanderer(uint64(i))
		if how >= sighted {
			brains[i].SetMap(arena.NewMap(w.MapSeed()))
		}
	}
	view := snapshot.New(protocol.Schema())
	ins := make([]arena.Input, bots)
	for tick := 1; tick <= ticks; tick++ {
		w.Fill(view)
		for i := range bots {
			id := arena.PlayerID(i + 1)
			if how == fetching {
				brains[i].Read(worldRecords{w, id})
			}
			if how == wandering {
				ins[i] = arena.Input(wanderers[i].Next())
			} else {
				ins[i] = arena.Input(brains[i].Next(w.Observe(id).Self, view))
			}
			w.ApplyInput(id, uint32(tick), ins[i])
		}
		w.Step()
		if each != nil {
			for i := range bots {
				p, _ := w.Player(arena.PlayerID(i + 1))
				each(i, ins[i], p)
			}
		}
	}
	return w.Stats()
}

func hitRate(s arena.Stats) float64 { return float64(s.Hits) / max(float64(s.ShotsFired), 1) }

// TestBrainsPlayTheArena: brains fed the arena's own snapshots hunt and
// score, far better than wanderers in the same match; with the map they
// waste fewer shots on walls than without.
func TestBrainsPlayTheArena(t *testing.T) {
	const bots, ticks = 8, 60 * arena.TickRate
	var with, without []string
	for _, seed := range []uint64{21, 4} {
		// The gun only: spread pellets that miss at range would blur the
		// hit rates this compares.
		cfg := arena.Config{Seed: seed, SpreadGuns: -1, PowerUps: -1}
		smart := playArena(t, cfg, bots, ticks, sighted, nil)
		old := playArena(t, cfg, bots, ticks, blind, nil)
		dumb := playArena(t, cfg, bots, ticks, wandering, nil)
		t.Logf("seed %d, %d bots, %d s: with the map %d shots, %d hits (%.0f %%), %d creatures, %d kills; "+
			"without %d shots, %d hits (%.0f %%), %d creatures, %d kills; wanderers %d shots, %d hits, %d creatures",
			seed, bots, ticks/arena.TickRate,
			smart.ShotsFired, smart.Hits, 100*hitRate(smart), smart.CreatureKills, smart.Kills,
			old.ShotsFired, old.Hits, 100*hitRate(old), old.CreatureKills, old.Kills,
			dumb.ShotsFired, dumb.Hits, dumb.CreatureKills)
		for _, s := range []arena.Stats{smart, old} {
			if s.Hits < 100 || s.CreatureKills < 20 || s.Hits < 2*dumb.Hits {
				t.Errorf("seed %d: brains hit %d times and killed %d creatures; wanderers hit %d times", seed, s.Hits, s.CreatureKills, dumb.Hits)
			}
			if hitRate(s) < 0.25 {
				t.Errorf("seed %d: brains hit with %d of %d shots", seed, s.Hits, s.ShotsFired)
			}
		}
		// Shots that hit nothing end on a wall or fly out their time:
		// seeing the walls, the bots hit with a clearly larger share.
		if hitRate(smart) < hitRate(old)+0.1 {
			t.Errorf("seed %d: with the map %.0f %% of shots hit, without %.0f %%", seed, 100*hitRate(smart), 100*hitRate(old))
		}
		if smart.Hits < old.Hits*3/4 {
			t.Errorf("seed %d: with the map %d hits, without %d: holding fire should not cost the fight", seed, smart.Hits, old.Hits)
		}
		with = append(with, fmt.Sprintf("%.0f", 100*hitRate(smart)))
		without = append(without, fmt.Sprintf("%.0f", 100*hitRate(old)))
	}
	figuretest.Hold(t, "bots-hit", fmt.Sprintf("%s %% of their shots hit, against %s %% for the same bots blind to the map (two seeds, 8 bots, 60 s)",
		strings.Join(with, " and "), strings.Join(without, " and ")))
}

// TestBrainsUseSpreadAndPower: bots that read their records fetch spread
// guns and power-ups, far more than bots that only stumble on them, fire
// the spread gun and kill with it, and fight at point blank with it: more
// of its pellets hit than the gun's shots do.
func TestBrainsUseSpreadAndPower(t *testing.T) {
	const bots, ticks = 8, 90 * arena.TickRate
	for _, seed := range []uint64{21, 4} {
		fetch := playArena(t, arena.Config{Seed: seed}, bots, ticks, fetching, nil)
		blind := playArena(t, arena.Config{Seed: seed}, bots, ticks, sighted, nil)
		t.Logf("seed %d, %d bots, %d s: reading records: %d spread guns and %d power-ups taken, %d spread shots, %d spread kills of %d, %d powered shots; "+
			"not reading: %d spread guns, %d power-ups, %d spread kills",
			seed, bots, ticks/arena.TickRate, fetch.SpreadTaken, fetch.PowerTaken, fetch.SpreadShots, fetch.SpreadKills, fetch.Kills, fetch.PoweredShots,
			blind.SpreadTaken, blind.PowerTaken, blind.SpreadKills)
		if fetch.SpreadTaken < 8 || fetch.PowerTaken < 3 || fetch.SpreadShots < 100 || fetch.SpreadKills == 0 || fetch.PoweredShots < 50 {
			t.Errorf("seed %d: bots reading records did not use the new things: %+v", seed, fetch)
		}
		if fetch.SpreadTaken+fetch.PowerTaken < 2*(blind.SpreadTaken+blind.PowerTaken)+4 {
			t.Errorf("seed %d: %d items taken reading records, %d without: the bots do not go for them", seed,
				fetch.SpreadTaken+fetch.PowerTaken, blind.SpreadTaken+blind.PowerTaken)
		}
	}
}

// TestBrainsNeverStayStuck: in a real match, no bot with the map pushes
// against a wall for more than the few ticks before a detour, nor stays
// within a tile's length of one spot for long while alive: it walks routes
// around walls. (Two bots circling each other stay close to one spot for a
// while: hence 5 s. Without the map bots push into walls for seconds, and
// some stay put for many more.)
func TestBrainsNeverStayStuck(t *testing.T) {
	const bots, ticks = 6, 3000
	for _, how := range []style{sighted, blind} {
		type track struct {
			x, y, ax, ay float64 // where it is; where its stay began
			stay, pinned int     // ticks within a tile's length of (ax, ay); of pushing without moving
			worstStay    int
			worstPinned  int
		}
		tr := make([]track, bots)
		for i := range tr {
			tr[i].x = math.NaN()
		}
		playArena(t, arena.Config{Seed: 21}, bots, ticks, how, func(i int, in arena.Input, p arena.PlayerInfo) {
			k := &tr[i]
			moved := math.Hypot(p.X-k.x, p.Y-k.y)
			k.x, k.y = p.X, p.Y
			if !p.Dead && (in.MoveX != 0 || in.MoveY != 0) && moved < 0.5 {
				k.pinned++
				k.worstPinned = max(k.worstPinned, k.pinned)
			} else {
				k.pinned = 0
			}
			if p.Dead || math.Hypot(p.X-k.ax, p.Y-k.ay) > arena.Tile {
				k.ax, k.ay, k.stay = p.X, p.Y, 0
				return
			}
			k.stay++
			k.worstStay = max(k.worstStay, k.stay)
		})
		worstStay, worstPinned := 0, 0
		for _, k := range tr {
			worstStay, worstPinned = max(worstStay, k.worstStay), max(worstPinned, k.worstPinned)
		}
		t.Logf("map %-5v: %d bots, %d ticks: longest push without moving %d ticks, longest stay within %d px %d ticks",
			how == sighted, bots, ticks, worstPinned, arena.Tile, worstStay)
		if how != sighted {
			continue
		}
		if worstPinned > 5 {
			t.Errorf("a bot pushed %d ticks without moving (at most 5)", worstPinned)
		}
		if worstStay > 5*arena.TickRate {
			t.Errorf("a bot stayed %d ticks within a tile's length of one spot (at most %d)", worstStay, 5*arena.TickRate)
		}
	}
}

// A newcomer who stands still, at a match's start or joining one under
// way, lives a while among 8 bots: it appears out of their sight
// (arena.SpawnDistance), shielded for 2 s, and they have to find it. (When
// every player started in the map's middle, it died 3 s after joining a
// match's start, as soon as its shield was gone.)
func TestIdleNewcomerLives(t *testing.T) {
	const (
		bots  = 8
		seeds = 12
		limit = 40 * arena.TickRate
	)
	var medians []string
	for _, joinAfter := range []int{0, 30 * arena.TickRate} {
		var lived []int
		for seed := uint64(1); seed <= seeds; seed++ {
			w, err := newMatch(arena.Config{Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			brains := make([]*Brain, bots)
			for i := range bots {
				w.AddPlayer(arena.PlayerID(i + 1))
				brains[i] = New(seed*100 + uint64(i))
				brains[i].SetMap(arena.NewMap(w.MapSeed()))
			}
			const newcomer = arena.PlayerID(99)
			view := snapshot.New(protocol.Schema())
			alive := limit
			for tick := 1; tick <= joinAfter+limit; tick++ {
				if tick == joinAfter+1 {
					w.AddPlayer(newcomer)
				}
				w.Fill(view)
				for i := range bots {
					id := arena.PlayerID(i + 1)
					w.ApplyInput(id, uint32(tick), arena.Input(brains[i].Next(w.Observe(id).Self, view)))
				}
				w.Step()
				if p, ok := w.Player(newcomer); ok && p.Dead {
					alive = tick - joinAfter
					break
				}
			}
			lived = append(lived, alive)
		}
		slices.Sort(lived)
		median := float64(lived[len(lived)/2]) / arena.TickRate
		t.Logf("joining after %d s: lived %v ticks, median %.1f s", joinAfter/arena.TickRate, lived, median)
		if median < 10 {
			t.Errorf("joining after %d s: an idle newcomer lived %.1f s at the median, want at least 10", joinAfter/arena.TickRate, median)
		}
		medians = append(medians, fmt.Sprintf("%.1f s", median))
	}
	figuretest.Hold(t, "newcomer-lives", fmt.Sprintf("an idle newcomer among %d bots lives %s at the median (%d seeds, at most %d s) from a match's start and %s joining one 30 s under way",
		bots, medians[0], seeds, limit/arena.TickRate, medians[1]))
}

// newMatch returns the arena world of cfg as the server drives it.
func newMatch(cfg arena.Config) (*server.Match, error) {
	w, err := arena.NewWorld(cfg)
	if err != nil {
		return nil, err
	}
	return server.NewMatch(w), nil
}
