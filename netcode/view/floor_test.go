package view_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/sightline-game/sightline/netcode/delta"
	"github.com/sightline-game/sightline/netcode/interest"
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
	"github.com/sightline-game/sightline/netcode/view"
)

// matchSchema has the match's layout: 12-bit slots, 4-bit generations, x
// and y of 16 bits, a 10-bit heading, kind, state and health.
func matchSchema() *snapshot.Schema {
	return snapshot.MustSchema(12, 4, 4096,
		snapshot.Field{Name: "x", Bits: 16}, snapshot.Field{Name: "y", Bits: 16},
		snapshot.Field{Name: "heading", Bits: 10}, snapshot.Field{Name: "kind", Bits: 2},
		snapshot.Field{Name: "state", Bits: 4}, snapshot.Field{Name: "health", Bits: 7})
}

func ExampleMinRate() {
	cfg := view.Config{TickRate: 30, Overhead: 10}
	fmt.Println(view.GuaranteedBytes(matchSchema(), cfg), "bytes a tick,", view.MinRate(matchSchema(), cfg), "B/s")
	// Output: 32 bytes a tick, 960 B/s
}

func TestMinRate(t *testing.T) {
	small := snapshot.MustSchema(8, 2, 256, snapshot.Field{Name: "v", Bits: 8})
	for _, tc := range []struct {
		name     string
		schema   *snapshot.Schema
		cfg      view.Config
		perTick  int
		minRate  int
		rejected float64 // a rate just below the floor
	}{
		// 96 header bits + 73 for an entity changed in all six fields
		// (6 + a 6-bit mask + 6 flags + 55 value bits) = 169 bits: 22 bytes.
		{"match at 30 Hz", matchSchema(), view.Config{TickRate: 30, Overhead: 10}, 32, 960, 959},
		{"match at 60 Hz", matchSchema(), view.Config{TickRate: 60, Overhead: 10}, 32, 1920, 1919.5},
		{"match, no framing", matchSchema(), view.Config{TickRate: 30}, 22, 660, 659},
		{"match at 20.5 Hz", matchSchema(), view.Config{TickRate: 20.5, Overhead: 10}, 32, 656, 655.5},
		// One 8-bit field: entering costs 8 + 2 + 8 = 18 bits, changed
		// 6 + 1 + 8 = 15; 96 + 18 = 114 bits: 15 bytes.
		{"one field", small, view.Config{TickRate: 30, Overhead: 2}, 17, 510, 509},
		// Zero TickRate takes the default, 30.
		{"default tick rate", small, view.Config{}, 15, 450, 449.9},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := view.GuaranteedBytes(tc.schema, tc.cfg); got != tc.perTick {
				t.Errorf("GuaranteedBytes = %d, want %d", got, tc.perTick)
			}
			if got := view.MinRate(tc.schema, tc.cfg); got != tc.minRate {
				t.Errorf("MinRate = %d, want %d", got, tc.minRate)
			}
			at := tc.cfg
			at.Rate = float64(tc.minRate)
			if err := at.Validate(tc.schema); err != nil {
				t.Errorf("at the floor: %v", err)
			}
			below := tc.cfg
			below.Rate = tc.rejected
			err := below.Validate(tc.schema)
			if !errors.Is(err, view.ErrRateBelowFloor) {
				t.Fatalf("rate %g: %v, want ErrRateBelowFloor", tc.rejected, err)
			}
			if want := fmt.Sprintf("the floor is %d B/s", tc.minRate); !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not name the floor (%q)", err, want)
			}
		})
	}
}

func TestNewSenderRefusesConfigsBelowTheFloor(t *testing.T) {
	s := matchSchema()
	sh := view.NewShared(view.NewWorldRing(s, 2*(history+1)), delta.MustCodec(s))
	for _, tc := range []struct {
		name string
		cfg  view.Config
		want error
	}{
		{"at the floor", view.Config{Rate: 960, Overhead: 10}, nil},
		{"default rate", view.Config{Overhead: 10}, nil},
		{"a byte a second short", view.Config{Rate: 959, Overhead: 10}, view.ErrRateBelowFloor},
		{"far below", view.Config{Rate: 100, Overhead: 10}, view.ErrRateBelowFloor},
		{"cap under one entity", view.Config{PacketCap: 21}, view.ErrPacketCapTooSmall},
		{"cap of one entity", view.Config{PacketCap: 22}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			snd, err := view.NewSender(sh, tc.cfg)
			if !errors.Is(err, tc.want) || (err == nil) != (tc.want == nil) {
				t.Fatalf("NewSender: %v, want %v", err, tc.want)
			}
			if (snd == nil) != (tc.want != nil) {
				t.Fatalf("NewSender returned %v with error %v", snd, err)
			}
		})
	}
}

// The floor rests on the sender's cost model; this checks the model against
// what the delta codec really writes for a packet carrying one entity at its
// most expensive (entering at the last slot with the largest generation, or
// changed in every field by a difference that only fits at full width),
// whatever the view around it holds and wherever the entity sits in it, in
// full packets and in deltas against a baseline 32 ticks old.
func TestOneEntityPacketWithinTheFloor(t *testing.T) {
	s := matchSchema()
	codec := delta.MustCodec(s)
	limit := view.GuaranteedBytes(s, view.Config{}) // no framing: the packet alone
	half := func(row []uint32) {
		for f, fd := range s.Fields {
			row[f] = 1 << (fd.Bits - 1)
		}
	}
	// view returns a snapshot of n unchanged entities on slots from
	// first, skipping skip.
	view := func(n, first int, skip uint16) *snapshot.Snapshot {
		v := snapshot.New(s)
		for slot := first; v.Len() < n; slot++ {
			if uint16(slot) != skip {
				v.AppendUnchecked(snapshot.EntityID{Index: uint16(slot), Generation: 3})
			}
		}
		return v
	}
	worst, worstCase := 0, ""
	measure := func(name string, n int) {
		if n > limit {
			t.Errorf("%s: %d bytes, the floor allows %d", name, n, limit)
		}
		if n > worst {
			worst, worstCase = n, name
		}
	}
	const tick, baseline = 1000, 1000 - history
	maxSlot := uint16(s.MaxEntities - 1)
	for _, n := range []int{0, 1, 2, 3, 4, 8, 40, 100, 1000, s.MaxEntities - 1} {
		for _, at := range []string{"first", "last"} {
			slot, first := maxSlot, 0
			if at == "first" {
				slot, first = 0, 1
			}
			// Entering: the baseline holds n others.
			base := view(n, first, slot)
			cur := snapshot.New(s)
			cur.CopyFrom(base)
			row := make([]uint32, len(s.Fields))
			half(row)
			in := snapshot.New(s)
			for i := range cur.Len() {
				if at == "first" && i == 0 {
					in.Append(snapshot.EntityID{Index: slot, Generation: s.MaxGeneration()}, row...)
				}
				copy(in.AppendUnchecked(cur.ID(i)), cur.Row(i))
			}
			if at == "last" || cur.Len() == 0 {
				in.Append(snapshot.EntityID{Index: slot, Generation: s.MaxGeneration()}, row...)
			}
			measure(fmt.Sprintf("delta, enters %s of %d", at, n), len(codec.AppendDelta(nil, tick, baseline, base, in)))
			if n == 0 {
				measure("full, one entity at slot "+fmt.Sprint(slot), len(codec.AppendFull(nil, tick, in)))
			}
			if n == 0 {
				continue
			}
			// Changed: the baseline holds n, the entity is its first or last.
			base = view(n, 0, 0xffff)
			i := 0
			if at == "last" {
				i = n - 1
			}
			cur = snapshot.New(s)
			cur.CopyFrom(base)
			half(cur.Row(i))
			measure(fmt.Sprintf("delta, changes %s of %d", at, n), len(codec.AppendDelta(nil, tick, baseline, base, cur)))
		}
	}
	t.Logf("largest one-entity packet: %d bytes (%s); the floor allows %d", worst, worstCase, limit)
	if worst < limit-6 {
		t.Errorf("the worst case found, %d bytes, is far under the floor's %d: the cases miss the worst", worst, limit)
	}
}

// At the floor rate, in a crowd of 2000 walkers of which a hundred or so are
// in view, a client that acknowledges every tick gets a packet every tick
// holding its own entity's value of that tick, and decodes every one to the
// view the sender recorded.
func TestOwnEntityEveryTickAtTheFloor(t *testing.T) {
	c := newCrowd(t, 2000, 0.3, 4)
	codec := delta.MustCodec(c.schema)
	cfg := view.Config{History: history, TickRate: tickRate, Overhead: 10}
	cfg.Rate = float64(view.MinRate(c.schema, cfg))
	sh := view.NewShared(c.ring, codec)
	o := &observer{area: interest.NewArea(600*units, 50*units, 1<<c.schema.IndexBits), sender: newSender(t, sh, cfg)}
	recv := snapstream.NewReceiver(delta.MustCodec(c.schema), c.schema, history)
	const ticks = 900
	var sent, stale, mismatched, maxInView, bytes int
	for t0 := 1; t0 <= ticks; t0++ {
		tick := uint32(t0)
		world := c.step(tick)
		o.sender.Ack(recv.Newest())
		self := int32(world.Len() / 2)
		x, y := world.Value(int(self), 0), world.Value(int(self), 1)
		pkt, rep := o.sender.Append(nil, tick, o.candidates(c, x, y, self))
		if rep.Skipped {
			t.Fatalf("tick %d skipped (%v)", tick, rep.Why)
		}
		sent++
		bytes += len(pkt) + cfg.Overhead
		maxInView = max(maxInView, rep.InView)
		h, err := recv.Receive(pkt)
		if err != nil {
			t.Fatalf("tick %d: %v", tick, err)
		}
		got := recv.Snapshot(h.Tick)
		if !got.Equal(o.sender.LastView()) {
			mismatched++
		}
		i, ok := got.Find(world.ID(int(self)).Index)
		if !ok || !equalRows(got.Row(i), world.Row(int(self))) {
			stale++
		}
	}
	st := o.sender.Stats()
	seconds := float64(ticks) / tickRate
	t.Logf("rate %.0f B/s: %d packets (%d lean), %.0f B/s spent, most in view %d, entities sent %d, deferrals %d, oldest value %d ticks (bound %d)",
		cfg.Rate, sent, st.Lean, float64(bytes)/seconds, maxInView, st.EntitiesSent, st.Deferrals, st.MaxValueAge, o.sender.MaxDeferral())
	if spent := float64(bytes) / seconds; spent > cfg.Rate {
		t.Errorf("%.0f B/s spent, budget %.0f", spent, cfg.Rate)
	}
	if sent != ticks || stale != 0 || mismatched != 0 {
		t.Errorf("%d of %d ticks sent, own entity stale in %d, %d decoded views differ", sent, ticks, stale, mismatched)
	}
	if maxInView < 20 {
		t.Errorf("at most %d entities in view: the test is no crowd", maxInView)
	}
	if st.MaxValueAge > o.sender.MaxDeferral() {
		t.Errorf("a value %d ticks old, bound %d", st.MaxValueAge, o.sender.MaxDeferral())
	}
}

func equalRows(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
