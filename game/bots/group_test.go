package bots

import (
	"context"
	"testing"
	"time"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/server"
)

// TestGroupGivesBrainsTheMap: bots started against a real match get, once
// welcomed, the walls of the match's map, one map for the whole group;
// seed 0 is a map like any other.
func TestGroupGivesBrainsTheMap(t *testing.T) {
	for _, seed := range []uint64{0, 7} {
		world, err := newArena(arena.Config{Seed: seed, Creatures: 20, MaxPlayers: 4})
		if err != nil {
			t.Fatal(err)
		}
		srv, err := server.New(server.Config{TickRate: 60}, world)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		ran := make(chan error, 1)
		go func() { ran <- srv.Run(ctx) }()
		const count = 3
		g, err := Start(ctx, Config{Count: count, TickRate: 60, Seed: 1}, srv.Add)
		if err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(2 * time.Minute); g.mapped.Load() < count && time.Now().Before(deadline); {
			time.Sleep(5 * time.Millisecond)
		}
		cancel()
		g.Wait()
		if err := <-ran; err != nil {
			t.Fatal(err)
		}
		if n := g.mapped.Load(); n != count {
			t.Fatalf("seed %d: %d of %d bots got the map", seed, n, count)
		}
		m, ok := g.maps[seed]
		if len(g.maps) != 1 || !ok {
			t.Fatalf("seed %d: maps made for seeds %v", seed, keys(g.maps))
		}
		for ty := range arena.Tiles {
			for tx := range arena.Tiles {
				if m.Wall(tx, ty) != world.Map().Wall(tx, ty) {
					t.Fatalf("seed %d: the bots' map differs from the match's at tile (%d, %d)", seed, tx, ty)
				}
			}
		}
	}
}

func keys(m map[uint64]*arena.Map) []uint64 {
	var k []uint64
	for s := range m {
		k = append(k, s)
	}
	return k
}

// newArena returns the arena world of cfg as the server drives it.
func newArena(cfg arena.Config) (*server.Match, error) {
	w, err := arena.NewWorld(cfg)
	if err != nil {
		return nil, err
	}
	return server.NewMatch(w), nil
}
