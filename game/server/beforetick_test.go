package server_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/sightline-game/sightline/game/server"
)

// Run calls BeforeTick at each tick, once, before the step, with the time
// the tick was due, so that a transport reading in rounds has the tick's
// inputs through; ticks fall on whole multiples of the period since the
// Unix epoch, so that the matches of a process tick together.
func TestRunCallsBeforeTickJustBeforeEachTick(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w, err := newWalkers(300, 0.3, tickRate, 1, 8)
		if err != nil {
			t.Fatal(err)
		}
		period := time.Second / tickRate
		// Start a third of a tick past a tick.
		time.Sleep(server.NextTick(time.Now(), period).Sub(time.Now()) + period/3)
		start := time.Now()
		var calls, dues []time.Time
		var srv *server.Server
		var ticksAtCall []uint32
		srv = newServer(t, server.Config{TickRate: tickRate, BeforeTick: func(due time.Time) {
			calls = append(calls, time.Now())
			dues = append(dues, due)
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
		first := start.Add(period - period/3)
		for i, at := range calls {
			want := first.Add(time.Duration(i) * period)
			if !at.Equal(want) || !dues[i].Equal(want) {
				t.Errorf("call %d at %v due %v, want both %v after the start", i, at.Sub(start), dues[i].Sub(start), want.Sub(start))
			}
			if into := at.UnixNano() % int64(period); into != 0 {
				t.Errorf("call %d at %v, %v past a multiple of the period", i, at, time.Duration(into))
			}
			if ticksAtCall[i] != uint32(i) {
				t.Errorf("call %d came after tick %d, want it before tick %d", i, ticksAtCall[i], i+1)
			}
		}
	})
}

// NextTick returns the next multiple of the period since the Unix epoch:
// two matches started apart tick together.
func TestNextTick(t *testing.T) {
	period := time.Second / 30
	base := time.Unix(0, 54_000_000_000*int64(period)) // a tick, in 2027
	for _, tc := range []struct {
		after, want time.Duration
	}{
		{0, period},
		{1, period},
		{period - 1, period},
		{period, 2 * period},
		{5*period + period/2, 6 * period},
	} {
		if got := server.NextTick(base.Add(tc.after), period).Sub(base); got != tc.want {
			t.Errorf("NextTick(%v past a tick) = %v past it, want %v", tc.after, got, tc.want)
		}
	}
}
