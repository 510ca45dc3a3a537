package bots

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/sightline-game/sightline/netcode/transport"
)

// TestBotsJoinAtJoinRate: a group's bots reach the server one by one,
// JoinRate a second, not all in one tick; a group stopped early adds no
// more of them.
func TestBotsJoinAtJoinRate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		var joined []time.Duration
		var conns []transport.Conn
		start := time.Now()
		add := func(c transport.Conn) {
			mu.Lock()
			defer mu.Unlock()
			joined = append(joined, time.Since(start))
			conns = append(conns, c)
		}
		ctx, cancel := context.WithCancel(context.Background())
		g, err := Start(ctx, Config{Count: 10, TickRate: 30, Seed: 1, JoinRate: 20}, add)
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(220 * time.Millisecond) // bots 0 to 4 are due at 0, 50, ..., 200 ms
		synctest.Wait()
		cancel()
		g.Wait()
		mu.Lock()
		defer mu.Unlock()
		want := []time.Duration{0, 50 * time.Millisecond, 100 * time.Millisecond, 150 * time.Millisecond, 200 * time.Millisecond}
		if len(joined) != len(want) {
			t.Fatalf("%d bots joined at %v, want %d at %v", len(joined), joined, len(want), want)
		}
		for i := range want {
			if joined[i] != want[i] {
				t.Fatalf("bots joined at %v, want %v", joined, want)
			}
		}
		for _, c := range conns {
			c.Close()
		}
	})
}
