package simrun_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/sightline-game/sightline/internal/figures/figuretest"

	"github.com/sightline-game/sightline/netcode/delta"
	"github.com/sightline-game/sightline/netcode/linksim"
	"github.com/sightline-game/sightline/netcode/refformat"
	"github.com/sightline-game/sightline/netcode/simrun"
	"github.com/sightline-game/sightline/netcode/snapstream"
	"github.com/sightline-game/sightline/netcode/traffic"
)

func world(t testing.TB, moving float64, seed uint64) *traffic.World {
	t.Helper()
	cfg := traffic.DefaultConfig()
	cfg.Moving, cfg.Seed = moving, seed
	w, err := traffic.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func runOne(t testing.TB, cfg simrun.Config, w *traffic.World, streams ...simrun.Stream) []simrun.Result {
	t.Helper()
	cfg.Schema = w.Schema()
	if cfg.TickRate == 0 {
		cfg.TickRate = 10
	}
	res, err := simrun.Run(cfg, w, streams...)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// Burst loss both ways over thousands of ticks: every tick the client
// decodes equals the server's state for that tick.
func TestBurstLossBothWaysNeverDesyncs(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		w := world(t, 0.15, seed)
		bursty := linksim.Config{Loss: 0.2, BurstLen: 4, Jitter: 30 * time.Millisecond, Reorder: 0.05, Duplicate: 0.02}
		res := runOne(t, simrun.Config{Ticks: 5000, RTT: 200 * time.Millisecond, Down: bursty, Up: bursty, History: 16, Seed: seed}, w,
			simrun.Stream{Name: "sightline", Format: delta.MustCodec(w.Schema())},
			simrun.Stream{Name: "bytemask", Format: refformat.ByteMask{Schema: w.Schema()}})
		for _, r := range res {
			t.Logf("seed %d %s: decoded %d of %d, lost %d down, %d without baseline, %d stale, full too old %d, mean age %.2f",
				seed, r.Name, r.Decoded, r.Ticks, r.DownLink.Lost, r.Receiver.NoBaseline, r.Receiver.Stale, r.Sender.FullTooOld, r.MeanAge)
			if r.Mismatched != 0 {
				t.Errorf("seed %d %s: %d of %d decoded ticks differ from the server", seed, r.Name, r.Mismatched, r.Decoded)
			}
			if r.Decoded < r.Ticks/2 {
				t.Errorf("seed %d %s: only %d of %d ticks decoded", seed, r.Name, r.Decoded, r.Ticks)
			}
			if r.DownLink.Lost < uint64(r.Ticks/10) {
				t.Errorf("seed %d %s: only %d packets lost: the run did not test loss", seed, r.Name, r.DownLink.Lost)
			}
		}
	}
}

// The classic mistake on the same world and network: diffing against the
// last packet sent corrupts the client, silently.
func TestDiffAgainstLastSentCorrupts(t *testing.T) {
	w := world(t, 0.15, 7)
	lossy := linksim.Config{Loss: 0.1, BurstLen: 2}
	codec := delta.MustCodec(w.Schema())
	res := runOne(t, simrun.Config{Ticks: 600, RTT: 200 * time.Millisecond, Down: lossy, Up: lossy, History: 16, Seed: 7}, w,
		simrun.Stream{Name: "acked", Format: codec},
		simrun.Stream{Name: "last sent", Format: delta.MustCodec(w.Schema()), LastSent: true})
	acked, naive := res[0], res[1]
	t.Logf("acked baselines: %d wrong of %d decoded; last sent: %d wrong of %d decoded, %.1f entities wrong on average",
		acked.Mismatched, acked.Decoded, naive.Mismatched, naive.Decoded, float64(naive.WrongEntities)/float64(max(naive.Mismatched, 1)))
	if acked.Mismatched != 0 {
		t.Fatalf("acknowledged baselines: %d wrong ticks, want 0", acked.Mismatched)
	}
	figuretest.Hold(t, "diff-last-sent", fmt.Sprintf("against the last packet sent, %d of %d decoded ticks wrong, %.0f entities wrong on average; against acknowledged baselines, %d of %d",
		naive.Mismatched, naive.Decoded, float64(naive.WrongEntities)/float64(max(naive.Mismatched, 1)), acked.Mismatched, acked.Decoded))
	if naive.Mismatched < naive.Decoded/2 {
		t.Fatalf("diffing against the last packet sent: only %d of %d ticks wrong; it should corrupt most of them", naive.Mismatched, naive.Decoded)
	}
}

// Packets grow with baseline age: a longer round trip means older baselines.
func TestSizeGrowsWithBaselineAge(t *testing.T) {
	prevAge, prevBytes := 0.0, 0.0
	for _, rtt := range []time.Duration{200, 400, 800, 1600, 3000} {
		w := world(t, 0.15, 3)
		res := runOne(t, simrun.Config{Ticks: 3000, RTT: rtt * time.Millisecond, History: 32, Seed: 3}, w,
			simrun.Stream{Name: "sightline", Format: delta.MustCodec(w.Schema())})
		r := res[0]
		perPacket := float64(r.Bytes) / float64(r.Ticks)
		t.Logf("RTT %4d ms: mean baseline age %.2f ticks, %.1f bytes per packet", rtt, r.MeanAge, perPacket)
		if r.MeanAge <= prevAge || perPacket <= prevBytes {
			t.Fatalf("RTT %d ms: age %.2f, %.1f B/packet; want both above %.2f, %.1f", rtt, r.MeanAge, perPacket, prevAge, prevBytes)
		}
		if r.Mismatched != 0 {
			t.Fatalf("%d mismatched", r.Mismatched)
		}
		prevAge, prevBytes = r.MeanAge, perPacket
	}
}

// Packets grow with the share of entities changing.
func TestSizeGrowsWithChangeRate(t *testing.T) {
	prev := 0.0
	for _, p := range []float64{0.02, 0.05, 0.15, 0.30, 0.60, 1} {
		w := world(t, p, 4)
		r := runOne(t, simrun.Config{Ticks: 2000, RTT: 200 * time.Millisecond, History: 16, Seed: 4}, w,
			simrun.Stream{Name: "sightline", Format: delta.MustCodec(w.Schema())})[0]
		if r.BytesPerSec <= prev {
			t.Fatalf("%.0f%% moving: %.0f B/s, not above %.0f", p*100, r.BytesPerSec, prev)
		}
		prev = r.BytesPerSec
	}
}

// A blackout longer than the history forces a full snapshot, and the client
// recovers and stays right.
func TestBlackoutLongerThanHistoryRecovers(t *testing.T) {
	w := world(t, 0.3, 5)
	const history = 16
	var fullAfter, decodedAfter int
	cfg := simrun.Config{Ticks: 400, RTT: 200 * time.Millisecond, History: history, Seed: 5,
		Blackouts: []simrun.Blackout{{From: 100, To: 100 + 3*history}}}
	cfg.OnPacket = func(_ int, tick uint32, _ int, why snapstream.Why, _ uint32) {
		if tick > 100+3*history && why == snapstream.FullTooOld {
			fullAfter++
		}
	}
	r := runOne(t, cfg, w, simrun.Stream{Name: "sightline", Format: delta.MustCodec(w.Schema())})[0]
	decodedAfter = r.Decoded
	if r.Sender.FullTooOld == 0 || fullAfter == 0 {
		t.Fatalf("no full snapshot after a blackout of %d ticks (history %d): stats %+v", 3*history, history, r.Sender)
	}
	if r.Mismatched != 0 {
		t.Fatalf("%d mismatched ticks", r.Mismatched)
	}
	// Before: 99 ticks; after: the last ~250 ticks all decode.
	if decodedAfter < 99+240 {
		t.Fatalf("decoded %d ticks; the client did not recover after the blackout", decodedAfter)
	}
	if r.Sender.Deltas < 300 {
		t.Fatalf("only %d deltas: the stream did not return to deltas after recovering", r.Sender.Deltas)
	}
}

// A round trip of whole ticks is a baseline that many ticks old, at tick
// rates whose period is not a whole number of nanoseconds too.
func TestBaselineAgeIsTheRoundTripInTicks(t *testing.T) {
	cases := []struct {
		hz   float64
		rtt  time.Duration
		want float64
	}{
		{10, 200 * time.Millisecond, 2},
		{30, 200 * time.Millisecond, 6},
		{60, 100 * time.Millisecond, 6},
		{30, 100 * time.Millisecond, 4}, // 1.5 ticks each way: the next tick
	}
	for _, c := range cases {
		w := world(t, 0.15, 1)
		res := runOne(t, simrun.Config{TickRate: c.hz, Ticks: 600, RTT: c.rtt, History: 16, Seed: 1}, w,
			simrun.Stream{Name: "sightline", Format: delta.MustCodec(w.Schema())})
		if got := res[0].MeanAge; got != c.want {
			t.Errorf("%g Hz, RTT %v: mean baseline age %.3f, want %g", c.hz, c.rtt, got, c.want)
		}
	}
}
