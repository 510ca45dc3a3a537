package server_test

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/game/server"
	"github.com/sightline-game/sightline/netcode/linksim"
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/view"
)

// The match's budget floor: 10 bytes of framing and 22 for the packet
// header and one entity at its largest, 30 times a second.
func TestRateFloor(t *testing.T) {
	if got := (server.Config{}).MinRate(); got != 960 {
		t.Fatalf("MinRate = %d, want 960", got)
	}
	if got := (server.Config{TickRate: 60}).MinRate(); got != 1920 {
		t.Fatalf("MinRate at 60 Hz = %d, want 1920", got)
	}
	for _, tc := range []struct {
		rate float64
		ok   bool
	}{{960, true}, {0, true} /* the default */, {959, false}, {700, false}, {100, false}} {
		w, err := newWalkers(10, 0.3, tickRate, 1, 4)
		if err != nil {
			t.Fatal(err)
		}
		cfg := server.Config{TickRate: tickRate, Rate: tc.rate}
		srv, err := server.New(cfg, w)
		if tc.ok {
			if err != nil || srv == nil || cfg.Validate() != nil {
				t.Errorf("rate %g: %v", tc.rate, err)
			}
			continue
		}
		if srv != nil || !errors.Is(err, view.ErrRateBelowFloor) || !errors.Is(cfg.Validate(), view.ErrRateBelowFloor) {
			t.Errorf("rate %g: server %v, error %v; want ErrRateBelowFloor", tc.rate, srv, err)
			continue
		}
		if !strings.Contains(err.Error(), "the floor is 960 B/s") {
			t.Errorf("rate %g: error %q does not name the floor", tc.rate, err)
		}
	}
}

// A client in view of 40 other players and the walkers around them, at the
// floor rate, is sent a snapshot every tick; every one carries its own
// entity as the world has it that tick, and every verified tick matches.
// (Without a floor, at 700 B/s, such a client was sent nothing at all.)
func TestFloorRateInACrowdEveryTick(t *testing.T) {
	const bots, ticks = 40, 300
	w, err := newWalkers(300, 0.3, tickRate, 1, bots+1)
	if err != nil {
		t.Fatal(err)
	}
	cfg := server.Config{TickRate: tickRate}
	cfg.Rate = float64(cfg.MinRate())
	m := &match{t: t, srv: newServer(t, cfg, w), epoch: time.Unix(1_700_000_000, 0)}
	watched := m.join(linksim.Config{}, 1)
	for i := range bots {
		m.join(linksim.Config{}, uint64(i+2))
	}
	world := snapshot.New(protocol.Schema())
	var late, stale, missing int
	minInView := math.MaxInt // other players within the view radius of the watched one
	var perTickMax int
	for tick := 1; tick <= ticks; tick++ {
		m.clock += time.Second / tickRate
		m.srv.Step(m.epoch.Add(m.clock))
		w.Fill(world)
		for i, c := range m.clients {
			n := c.Poll()
			// Everyone walks at half speed round a circle of 100 px near
			// the middle, each at its own phase, aiming where it walks:
			// nobody is ever more than 400 px from anybody.
			a := float64(tick)/tickRate + float64(i)*2*math.Pi/float64(len(m.clients))
			c.SendInput(arena.Input{MoveX: int8(63 * math.Cos(a)), MoveY: int8(63 * math.Sin(a)), Aim: a})
			if c != watched || tick < 3 {
				continue
			}
			got, snap := c.Newest()
			if n != 1 || got != uint32(tick) {
				late++
				continue
			}
			slot, ok := c.Self()
			if !ok {
				t.Fatalf("tick %d: no welcome", tick)
			}
			wi, inWorld := world.Find(slot)
			ci, inView := snap.Find(slot)
			switch {
			case !inWorld || !inView:
				missing++
				continue
			case !slices.Equal(world.Row(wi), snap.Row(ci)):
				stale++
			}
			perTickMax = max(perTickMax, c.PacketSize())
			minInView = min(minInView, inArea(world, wi, protocol.ViewRadius*protocol.UnitsPerPx))
		}
	}
	st := watched.Stats()
	ps := m.srv.Stats().Players[0]
	t.Logf("rate %.0f B/s: decoded %d of %d ticks, verified %d, mismatched %d, late %d, own entity stale %d, missing %d; players in view at least %d, largest datagram %d B, %d B/s over the last second",
		cfg.Rate, st.Decoded, ticks, st.Verified, st.Mismatched, late, stale, missing, minInView, perTickMax, ps.BytesPerSec)
	if late != 0 || stale != 0 || missing != 0 {
		t.Errorf("of %d ticks: %d without their snapshot, %d with the own entity stale, %d without it", ticks-2, late, stale, missing)
	}
	if st.Mismatched != 0 || st.Verified < ticks-2 {
		t.Errorf("%d mismatched of %d verified", st.Mismatched, st.Verified)
	}
	if minInView < bots {
		t.Errorf("at times only %d players within view: the watched client is not in the crowd", minInView)
	}
	if float64(ps.BytesPerSec) > cfg.Rate {
		t.Errorf("%d B/s over the last second, budget %.0f", ps.BytesPerSec, cfg.Rate)
	}
}

// inArea counts the other players within r (quantized units) of row i.
func inArea(world *snapshot.Snapshot, i int, r float64) int {
	x, y := float64(world.Value(i, protocol.FieldX)), float64(world.Value(i, protocol.FieldY))
	n := 0
	for j := range world.Len() {
		if j != i && world.Value(j, protocol.FieldKind) == protocol.KindPlayer &&
			math.Hypot(float64(world.Value(j, protocol.FieldX))-x, float64(world.Value(j, protocol.FieldY))-y) <= r {
			n++
		}
	}
	return n
}
