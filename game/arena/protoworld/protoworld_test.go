package protoworld

import (
	"testing"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/events"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// serverWorld is game/server's World with its optional interfaces, copied
// here so that this test does not build the server.
type serverWorld interface {
	AddPlayer(id protocol.PlayerID)
	RemovePlayer(id protocol.PlayerID)
	ApplyInput(id protocol.PlayerID, seq uint32, in protocol.Input)
	Observe(id protocol.PlayerID) protocol.Observer
	AppliedInput(id protocol.PlayerID) uint32
	Step()
	Fill(dst *snapshot.Snapshot)
	TakeEvents(fn func(kind events.Kind, body []byte))
	ChangedRecords(fn func(id uint32, gen uint16, payload []byte, deleted bool))
	AllRecords(fn func(id uint32, gen uint16, payload []byte, deleted bool))
	SetName(id protocol.PlayerID, name string)
	MapSeed() uint64
}

var _ serverWorld = (*World)(nil)

func TestWrapped(t *testing.T) {
	if _, err := New(arena.Config{MaxPlayers: -3}); err == nil {
		t.Fatal("a bad config is accepted")
	}
	w, err := New(arena.Config{Seed: 42})
	if err != nil {
		t.Fatal(err)
	}
	var sw serverWorld = w
	sw.AddPlayer(3)
	sw.SetName(3, "zoe")
	o := sw.Observe(3)
	if !o.HasSelf || o.Self != 300 || sw.MapSeed() != 42 {
		t.Fatalf("observer %+v", o)
	}
	before, _ := w.Player(3)
	for seq := uint32(1); seq <= 10; seq++ {
		sw.ApplyInput(3, seq, protocol.Input{MoveX: 127, Buttons: protocol.ButtonFire})
		sw.Step()
	}
	after, _ := w.Player(3)
	if sw.AppliedInput(3) != 10 || after.X <= before.X || after.Name != "zoe" || w.Stats().ShotsFired != 2 {
		t.Fatalf("after 10 ticks: applied %d, %+v -> %+v, stats %+v", sw.AppliedInput(3), before, after, w.Stats())
	}
	snap := snapshot.New(protocol.Schema())
	sw.Fill(snap)
	if i, ok := snap.Find(o.Self); !ok || snap.Value(i, arena.FieldKind) != arena.KindPlayer {
		t.Fatal("the player is not in the snapshot")
	}
	sw.RemovePlayer(3)
	if sw.Observe(3).HasSelf {
		t.Fatal("a removed player still has an entity")
	}
}
