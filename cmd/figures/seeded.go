package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sightline-game/sightline/internal/figures"
	"github.com/sightline-game/sightline/internal/figures/figuretest"
)

// heldFigure is a figure that a seeded test prints and holds
// (figuretest.Hold): the test fails when docs/figures.md says otherwise.
type heldFigure struct {
	name, title string
	pkg, test   string // the package, as ./path, and the test that holds it
}

// heldFigures are the seeded group's figures, in the order of the file.
var heldFigures = []heldFigure{
	{"replay-size", "A replay of the arena's first row: the whole world every tick, a keyframe every 3 s, beside the bytes the players were sent (`go run ./cmd/netbench -traffic arena -seconds 120 -replay` prints the same).", "./cmd/netbench", "TestReplaySizeAsInFigures"},
	{"diff-last-sent", "What a delta against the last packet sent does under loss, beside one against acknowledged baselines (the same world and network).", "./netcode/simrun", "TestDiffAgainstLastSentCorrupts"},
	{"delta-200-entities", "The seed document's worked case: 200 entities, 20 of them moving a little, 1 removed, 1 added.", "./netcode/delta", "TestSeedCase200Entities"},
	{"arena-view-bytes", "A delta of a bot's view (everything within the view radius, baselines 2 to 8 ticks old) with the game's codes and predictor, and without them.", "./game/protocol", "TestArenaViewBytes"},
	{"predictor-saves", "The change bits the game's predictor leaves, per kind of entity, on bot matches.", "./game/protocol", "TestPredictorSaves"},
	{"prefix-codes", "The trained prefix codes against arithmetic coding of the same symbols, on views of a match of another seed than the training's.", "./game/protocol", "TestPrefixCodesAgainstArithmeticCoding"},
	{"budget-crowd", "The byte budget in a crowd: 4,000 B/s against 138 entities in view.", "./netcode/view", "TestBudgetHeldInACrowd"},
	{"duel-hit-rate", "The duel of a perfect aimer and a strafer on a virtual clock, with and without lag compensation.", "./game/duel", "TestDuelHitRateWithAndWithoutCompensation"},
	{"duel-liar", "What a client lying about its view gains in the duel, against its honest twin.", "./game/duel", "TestDuelLiarGainsNothing"},
	{"newcomer-lives", "How long an idle newcomer lives among 8 bots.", "./game/bots/brain", "TestIdleNewcomerLives"},
	{"bots-hit", "How often the bots' shots hit, with the map and blind to it.", "./game/bots/brain", "TestBrainsPlayTheArena"},
	{"sound-lengths", "The game's sound effects as assets/sfx synthesizes them.", "./assets/sfx", "TestLengthIsTheSynthesized"},
}

// heldCommand is how a reader runs the test that holds f.
func heldCommand(f heldFigure) string {
	return fmt.Sprintf("go test -count=1 -v -run '^%s$' %s", f.test, f.pkg)
}

// measureSeeded runs the tests that hold the seeded figures, a package at
// a time, and takes each figure as its test logged it.
func measureSeeded(e *env) ([]figures.Figure, error) {
	var pkgs []string
	byPkg := map[string][]string{}
	for _, f := range heldFigures {
		if byPkg[f.pkg] == nil {
			pkgs = append(pkgs, f.pkg)
		}
		if !slices.Contains(byPkg[f.pkg], f.test) {
			byPkg[f.pkg] = append(byPkg[f.pkg], f.test)
		}
	}
	held := map[string]string{}
	for _, pkg := range pkgs {
		s, err := e.run([]string{figuretest.MeasuringEnv + "=1"}, e.Go, "test", "-count=1", "-v",
			"-run", "^("+strings.Join(byPkg[pkg], "|")+")$", pkg)
		if err != nil {
			return nil, err
		}
		for name, content := range figuretest.Parse(s) {
			held[name] = content
		}
	}
	var out []figures.Figure
	for _, h := range heldFigures {
		content, ok := held[h.name]
		if !ok {
			return nil, fmt.Errorf("%s: %w: %s printed none", h.name, errParse, h.test)
		}
		f := e.figure(h.name, h.title, heldCommand(h))
		f.Content = content
		f.Exact = fmt.Sprintf("yes, seeded; %s (%s) holds it: it fails when this file says otherwise", h.test, strings.TrimPrefix(h.pkg, "./"))
		out = append(out, f)
	}
	return out, nil
}

// heldNames are the seeded figures' names, in order.
func heldNames() []string {
	var names []string
	for _, f := range heldFigures {
		names = append(names, f.name)
	}
	return names
}
