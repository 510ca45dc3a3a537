package matchrec

import (
	"testing"

	"github.com/sightline-game/sightline/netcode/broadcast"
)

// The replay holds the whole match, its last ticks too: a match whose
// length is not a whole number of fragments ends in a short one.
func TestRecordKeepsTheLastFragment(t *testing.T) {
	const ticks, frag = 100, 30
	b, err := Record(Config{Players: 2, Creatures: 10, Ticks: ticks, FragmentTicks: frag})
	if err != nil {
		t.Fatal(err)
	}
	rp, err := broadcast.OpenReplay(b)
	if err != nil {
		t.Fatal(err)
	}
	if got := rp.LastTick() - rp.FirstTick() + 1; got != ticks {
		t.Errorf("the replay holds ticks %d to %d: %d of the match's %d", rp.FirstTick(), rp.LastTick(), got, ticks)
	}
}
