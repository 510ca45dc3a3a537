package server_test

import (
	"testing"

	"github.com/sightline-game/sightline/game/server"
	"github.com/sightline-game/sightline/netcode/interest"
)

func TestAppendCandidatesRanksWhatMattersToThePlayer(t *testing.T) {
	ents := &interest.Entities{
		Slots:       []uint16{7, 1, 2, 3},
		Generations: []uint16{0, 0, 0, 0},
		Xs:          []uint32{1000, 1100, 1000, 1000},
		Ys:          []uint32{1000, 1000, 1900, 1000 - 100},
	}
	o := server.Observer{X: 1000, Y: 1000, Aim: 0, Self: 7, HasSelf: true}
	got := o.AppendCandidates(nil, ents, []int32{0, 1, 2, 3}, 1000)
	if len(got) != 4 {
		t.Fatalf("%d candidates, want 4", len(got))
	}
	for i, c := range got {
		if c.Row != int32(i) {
			t.Errorf("candidate %d is row %d, want the members' order", i, c.Row)
		}
	}
	if !got[0].Must || got[1].Must || got[2].Must {
		t.Errorf("Must = %v %v %v, want only the own entity", got[0].Must, got[1].Must, got[2].Must)
	}
	// Row 1 is 100 away straight along the aim: near (1+4*0.81) and doubled.
	if want := float32(2 * (1 + 4*0.9*0.9)); got[1].Priority < want-1e-4 || got[1].Priority > want+1e-4 {
		t.Errorf("aimed-at priority %v, want %v", got[1].Priority, want)
	}
	// Row 3 is as near but off the aim; row 2 is far and off the aim.
	if want := float32(1 + 4*0.9*0.9); got[3].Priority < want-1e-4 || got[3].Priority > want+1e-4 {
		t.Errorf("off-aim priority %v, want %v", got[3].Priority, want)
	}
	if !(got[2].Priority < got[3].Priority && got[3].Priority < got[1].Priority) {
		t.Errorf("priorities far %v, near %v, aimed %v: want far < near < aimed", got[2].Priority, got[3].Priority, got[1].Priority)
	}
}
