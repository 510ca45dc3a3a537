package protocol_test

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/sightline-game/sightline/internal/figures/figuretest"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/bots/brain"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/game/server"
	"github.com/sightline-game/sightline/netcode/bitpack"
	"github.com/sightline-game/sightline/netcode/delta/train"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

var retrain = flag.Bool("retrain", false, "print the residual and mask codes trained afresh on bot matches")

// recordArena plays a match of bots (game/bots/brain, each seeing the whole
// world) and calls fn with every tick's snapshot.
func recordArena(t testing.TB, seed uint64, players, ticks int, fn func(tick int, s *snapshot.Snapshot)) {
	t.Helper()
	w, err := arena.NewWorld(arena.Config{Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	m := server.NewMatch(w)
	brains := make([]*brain.Brain, players)
	for i := range brains {
		id := arena.PlayerID(i + 1)
		w.AddPlayer(id)
		w.SetName(id, fmt.Sprintf("bot%d", i))
		brains[i] = brain.New(seed*100 + uint64(i))
		brains[i].SetMap(w.Map())
	}
	snap := snapshot.New(protocol.Schema())
	for tick := 1; tick <= ticks; tick++ {
		m.Fill(snap)
		for i, b := range brains {
			id := arena.PlayerID(i + 1)
			if pose, ok := w.Pose(id); ok {
				w.ApplyInput(id, uint32(tick), b.Next(pose.Slot, snap))
			}
		}
		w.Step()
		m.Fill(snap)
		fn(tick, snap)
	}
}

// trainingGaps are the baseline ages the tallies see: at 30 Hz a client
// acknowledges a tick a round trip later, 2 to 8 ticks; an entity the byte
// budget held back is older, up to a second.
var trainingGaps = []int{2, 3, 4, 4, 5, 6, 8, 12, 16, 24}

// codeMaxLen and maskMaxLen bound the codewords: a rare residual length
// (an entity the budget held back, a teleport) or a rare mask costs at
// most this much.
const codeMaxLen, maskMaxLen = 8, 10

// arenaTally counts what deltas of bot matches code with schema s, keeping
// only the entities keep accepts (nil: all of them).
func arenaTally(t testing.TB, s *snapshot.Schema, seeds []uint64, ticks int, keep func(row []uint32) bool) *train.Tally {
	t.Helper()
	tl, err := train.NewTally(s)
	if err != nil {
		t.Fatal(err)
	}
	const ring = 32
	for _, seed := range seeds {
		var snaps [ring]*snapshot.Snapshot
		for i := range snaps {
			snaps[i] = snapshot.New(s)
		}
		recordArena(t, seed, 16, ticks, func(tick int, cur *snapshot.Snapshot) {
			dst := snaps[tick%ring]
			dst.Reset()
			for i := range cur.Len() {
				if keep == nil || keep(cur.Row(i)) {
					copy(dst.AppendUnchecked(cur.ID(i)), cur.Row(i))
				}
			}
			if g := trainingGaps[tick%len(trainingGaps)]; tick > ring {
				tl.Add(snaps[(tick-g)%ring], dst, uint32(g))
			}
		})
	}
	return tl
}

// viewers is how many players' views arenaViewTally follows.
const viewers = 4

// arenaViewTally counts what deltas of bot matches code with schema s in
// the views of a few players: every entity within ViewRadius of the
// player. New entities are the ones that enter a view, which the whole
// world does not show: projectiles fired from out of sight, creatures
// walking in.
func arenaViewTally(t testing.TB, s *snapshot.Schema, seeds []uint64, ticks int) *train.Tally {
	t.Helper()
	tl, err := train.NewTally(s)
	if err != nil {
		t.Fatal(err)
	}
	arenaViews(t, s, seeds, ticks, tl.Add)
	return tl
}

// arenaViews plays bot matches and calls fn with each delta the views of a
// few players make: the view (every entity within ViewRadius of the
// player) against the same player's view gap ticks older.
func arenaViews(t testing.TB, s *snapshot.Schema, seeds []uint64, ticks int, fn func(base, cur *snapshot.Snapshot, gap uint32)) {
	t.Helper()
	const ring = 32
	r := int64(protocol.PosQuant.Quantize(protocol.ViewRadius) - protocol.PosQuant.Quantize(0))
	for _, seed := range seeds {
		var snaps [viewers][ring]*snapshot.Snapshot
		for v := range snaps {
			for i := range snaps[v] {
				snaps[v][i] = snapshot.New(s)
			}
		}
		recordArena(t, seed, 16, ticks, func(tick int, cur *snapshot.Snapshot) {
			v := 0
			for i := range cur.Len() {
				me := cur.Row(i)
				if me[protocol.FieldKind] != protocol.KindPlayer || v == viewers {
					continue
				}
				dst := snaps[v][tick%ring]
				dst.Reset()
				for j := range cur.Len() {
					row := cur.Row(j)
					dx, dy := int64(row[protocol.FieldX])-int64(me[protocol.FieldX]), int64(row[protocol.FieldY])-int64(me[protocol.FieldY])
					if dx*dx+dy*dy <= r*r {
						copy(dst.AppendUnchecked(cur.ID(j)), row)
					}
				}
				if g := trainingGaps[(tick+v)%len(trainingGaps)]; tick > ring {
					fn(snaps[v][(tick-g)%ring], dst, uint32(g))
				}
				v++
			}
		})
	}
}

// The shipped codes are as good as codes trained afresh: on matches of
// other seeds, each costs at most 2 % more than the code trained on those
// very matches. go test ./game/protocol -run TrainedCodes -args -retrain
// prints fresh tables (trained on seeds 11 to 13).
func TestTrainedCodes(t *testing.T) {
	s := protocol.Schema()
	if *retrain {
		tl := arenaTally(t, s, []uint64{11, 12, 13}, 3000, nil)
		var b strings.Builder
		for f, fd := range s.Fields {
			l, err := tl.Lengths(f, codeMaxLen)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "%s: %#v\n", fd.Name, l)
		}
		l, err := tl.MaskLengths(maskMaxLen)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "masks: %#v\n", l)
		for k := range tl.Contexts() {
			for f, fd := range s.Fields {
				l, err := tl.ContextLengths(k, f, codeMaxLen)
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(&b, "context %d %s: %#v\n", k, fd.Name, l)
			}
			l, err := tl.ContextMaskLengths(k, maskMaxLen)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "context %d masks: %#v\n", k, l)
			fmt.Fprintf(&b, "context %d: %d changes\n", k, tl.ContextChanges(k))
		}
		vt := arenaViewTally(t, s, []uint64{11, 12, 13}, 3000)
		for _, made := range []bool{false, true} {
			for f, fd := range s.Fields {
				if made && fd.SpawnCode == nil {
					continue // not written
				}
				l, err := vt.NewLengths(f, made, codeMaxLen)
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(&b, "new %s (made %v): %#v\n", fd.Name, made, l)
			}
		}
		before, made := vt.Made()
		fmt.Fprintf(&b, "new entities: %d against the one before, %d made\n", before, made)
		t.Log("\n" + b.String())
	}
	fresh := arenaTally(t, s, []uint64{21}, 2000, nil)
	for f, fd := range s.Fields {
		l, err := fresh.Lengths(f, codeMaxLen)
		if err != nil {
			t.Fatal(err)
		}
		shipped, best := fresh.Bits(f, fd.Code), fresh.Bits(f, bitpack.MustCode(l...))
		t.Logf("%s: shipped code %.0f bits, fresh code %.0f, entropy %.0f", fd.Name, shipped, best, fresh.Bits(f, nil))
		if shipped > 1.02*best+64 {
			t.Errorf("%s: the shipped code costs %.0f bits, a fresh one %.0f: retrain", fd.Name, shipped, best)
		}
	}
	views := arenaViewTally(t, s, []uint64{21}, 2000)
	for _, made := range []bool{false, true} {
		for f, fd := range s.Fields {
			if made && fd.SpawnCode == nil {
				continue // not written
			}
			l, err := views.NewLengths(f, made, codeMaxLen)
			if err != nil {
				t.Fatal(err)
			}
			code := fd.NewCode
			if made {
				code = fd.SpawnCode
			}
			shipped, best := views.NewBits(f, made, code), views.NewBits(f, made, bitpack.MustCode(l...))
			t.Logf("new %s (made %v): shipped code %.0f bits, fresh code %.0f, entropy %.0f", fd.Name, made, shipped, best, views.NewBits(f, made, nil))
			if shipped > 1.02*best+64 {
				t.Errorf("new %s (made %v): the shipped code costs %.0f bits, a fresh one %.0f: retrain", fd.Name, made, shipped, best)
			}
		}
	}
	// The codes of each context (the schema's where a context has none).
	for k, cc := range s.Contexts {
		for f, fd := range s.Fields {
			code := fd.Code
			if f < len(cc.Fields) && cc.Fields[f] != nil {
				code = cc.Fields[f]
			}
			l, err := fresh.ContextLengths(k, f, codeMaxLen)
			if err != nil {
				t.Fatal(err)
			}
			shipped, best := fresh.ContextBits(k, f, code), fresh.ContextBits(k, f, bitpack.MustCode(l...))
			t.Logf("context %d %s: shipped code %.0f bits, fresh code %.0f, entropy %.0f", k, fd.Name, shipped, best, fresh.ContextBits(k, f, nil))
			if shipped > 1.02*best+64 {
				t.Errorf("context %d %s: the shipped code costs %.0f bits, a fresh one %.0f: retrain", k, fd.Name, shipped, best)
			}
		}
		code := s.MaskCode
		if cc.Mask != nil {
			code = cc.Mask
		}
		l, err := fresh.ContextMaskLengths(k, maskMaxLen)
		if err != nil {
			t.Fatal(err)
		}
		shipped, best := fresh.ContextMaskBits(k, code), fresh.ContextMaskBits(k, bitpack.MustCode(l...))
		t.Logf("context %d masks: shipped code %.0f bits, fresh code %.0f, entropy %.0f", k, shipped, best, fresh.ContextMaskBits(k, nil))
		if shipped > 1.02*best+64 {
			t.Errorf("context %d masks: the shipped code costs %.0f bits, a fresh one %.0f: retrain", k, shipped, best)
		}
	}
	l, err := fresh.MaskLengths(maskMaxLen)
	if err != nil {
		t.Fatal(err)
	}
	shipped, best := fresh.MaskBits(s.MaskCode), fresh.MaskBits(bitpack.MustCode(l...))
	t.Logf("masks: shipped code %.0f bits, fresh code %.0f, entropy %.0f", shipped, best, fresh.MaskBits(nil))
	if shipped > 1.02*best+64 {
		t.Errorf("masks: the shipped code costs %.0f bits, a fresh one %.0f: retrain", shipped, best)
	}
}

// What the predictor saves, per kind of entity: the residual bits of bot
// matches with the game's predictor and with none (each with the shipped
// codes). Projectiles fly exactly as predicted (Fill puts them on their
// whole-unit path) and cost nothing; creatures move along their heading and
// must cost less predicted; players move by input, which the row does not carry,
// so the predictor leaves them where they were and they cost the same.
func TestPredictorSaves(t *testing.T) {
	var left []string
	for _, k := range []struct {
		kind   uint32
		name   string
		atMost float64 // predicted bits over unpredicted
	}{
		{protocol.KindProjectile, "projectiles", 0},
		{protocol.KindCreature, "creatures", 0.9},
		{protocol.KindPlayer, "players", 1},
	} {
		keep := func(row []uint32) bool { return row[protocol.FieldKind] == k.kind }
		var bits [2]float64
		for i, predict := range []bool{true, false} {
			s := protocol.Schema()
			if !predict {
				s.Predictor = nil
			}
			tl := arenaTally(t, s, []uint64{5}, 1500, keep)
			for f, fd := range s.Fields {
				bits[i] += tl.Bits(f, fd.Code)
			}
		}
		t.Logf("%s: %.0f residual bits predicted, %.0f not (%.0f %%)", k.name, bits[0], bits[1], 100*bits[0]/bits[1])
		left = append(left, fmt.Sprintf("%.0f%% of the %s'", 100*bits[0]/bits[1], k.name))
		if bits[0] > k.atMost*bits[1] {
			t.Errorf("%s: %.0f bits predicted, %.0f not: want at most %.0f %%", k.name, bits[0], bits[1], 100*k.atMost)
		}
	}
	figuretest.Hold(t, "predictor-saves", "the predictor leaves "+strings.Join(left[:len(left)-1], ", ")+" and "+left[len(left)-1]+" change bits")
}

// schemaVariants returns the game's schema, then the same without its
// predictor, then without its codes as well.
func schemaVariants() ([]string, []*snapshot.Schema) {
	game, noPred, generic := protocol.Schema(), protocol.Schema(), protocol.Schema()
	noPred.Predictor = nil
	generic.Predictor, generic.MaskCode = nil, nil
	for f := range generic.Fields {
		generic.Fields[f].Code = nil
	}
	return []string{"game's codes and predictor", "game's codes, no predictor", "generic coding"}, []*snapshot.Schema{game, noPred, generic}
}
