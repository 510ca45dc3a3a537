package server_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/sightline-game/sightline/game/server"
)

// Run calls BeforeTick at each tick, once, before the step, so that a
// transport reading in rounds has the tick's inputs through.
func TestRunCallsBeforeTickJustBeforeEachTick(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w, err := newWalkers(300, 0.3, tickRate, 1, 8)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		period := time.Second / tickRate
		var calls []time.Duration
		var srv *server.Server
		var ticksAtCall []uint32
		srv = newServer(t, server.Config{TickRate: tickRate, BeforeTick: func() {
			calls = append(calls, time.Since(start))
			ticksAtCall = append(ticksAtCall, srv.Tick())
		}}, w)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error)
		go func() { done <- srv.Run(ctx) }()
		time.Sleep(10*period + period/2)
		cancel()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if len(calls) != 10 {
			t.Fatalf("BeforeTick called %d times in 10.5 ticks, want 10: %v", len(calls), calls)
		}
		for i, at := range calls {
			want := time.Duration(i+1) * period
			if at != want {
				t.Errorf("call %d at %v, want %v (tick %d)", i, at, want, i+1)
			}
			if ticksAtCall[i] != uint32(i) {
				t.Errorf("call %d came after tick %d, want it before tick %d", i, ticksAtCall[i], i+1)
			}
		}
	})
}
