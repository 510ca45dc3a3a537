package view_test

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/sightline-game/sightline/internal/figures"
	"github.com/sightline-game/sightline/internal/figures/figuretest"

	"github.com/sightline-game/sightline/netcode/delta"
	"github.com/sightline-game/sightline/netcode/interest"
	"github.com/sightline-game/sightline/netcode/linksim"
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
	"github.com/sightline-game/sightline/netcode/traffic"
	"github.com/sightline-game/sightline/netcode/view"
)

// crowd is a world of walkers, quantized each tick into a ring, with a grid.
type crowd struct {
	w      *traffic.World
	ring   *view.WorldRing
	grid   *interest.Grid
	ents   interest.Entities
	schema *snapshot.Schema
}

const (
	units    = 8 // quantized units per pixel (1/8 px)
	tickRate = 30
	history  = 32
)

func newCrowd(t testing.TB, n int, moving float64, seed uint64) *crowd {
	cfg := traffic.DefaultConfig()
	cfg.Entities, cfg.Moving, cfg.TickRate, cfg.Seed = n, moving, tickRate, seed
	cfg.WalkSpeed = 60
	w, err := traffic.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// The traffic schema sized for n entities, with room for 12-bit slots,
	// and the model's predictor and codes.
	sch := snapshot.MustSchema(12, 4, 4096, w.Schema().Fields...)
	sch.MaskCode, sch.Predictor = w.Schema().MaskCode, w.Schema().Predictor
	return &crowd{w: w, ring: view.NewWorldRing(sch, 2*(history+1)), grid: interest.NewGrid(32768, 4096), schema: sch}
}

func (c *crowd) step(tick uint32) *snapshot.Snapshot {
	c.w.Step()
	s := c.ring.Begin(tick)
	c.w.Fill(s)
	c.ring.Commit(tick)
	c.ents.Load(s, traffic.FieldX, traffic.FieldY)
	c.grid.Build(c.ents.Xs, c.ents.Ys)
	return s
}

// observer is one client: where it stands, its area, its sender.
type observer struct {
	area    *interest.Area
	sender  *view.Sender
	near    []int32
	members []int32
	cands   []view.Candidate
}

func (o *observer) candidates(c *crowd, x, y uint32, self int32) []view.Candidate {
	o.members = o.area.Query(o.members[:0], c.grid, &c.ents, x, y)
	o.cands = o.cands[:0]
	reach := float64(o.area.Reach())
	for _, e := range o.members {
		d := math.Sqrt(float64(interest.Dist2(c.ents.Xs[e], c.ents.Ys[e], x, y)))
		p := 1 + 4*float32(max(0, 1-d/reach)*max(0, 1-d/reach))
		o.cands = append(o.cands, view.Candidate{Row: e, Priority: p, Must: e == self})
	}
	return o.cands
}

// newSender is view.NewSender for configs the test knows to be valid.
func newSender(t testing.TB, sh *view.Shared, cfg view.Config) *view.Sender {
	t.Helper()
	s, err := view.NewSender(sh, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// centre walks a slow circle through the crowd.
func centre(tick uint32) (uint32, uint32) {
	a := float64(tick) / 400
	return uint32(16384 + 8000*math.Cos(a)), uint32(16384 + 8000*math.Sin(a))
}

type runResult struct {
	decoded, mismatched, outside int
	maxPacket                    int
	maxSecond                    int // most bytes in any one-second window
	stats                        view.SenderStats
	inView                       int
	maxAge                       uint32
}

// run plays one client for ticks over links with cfg both ways.
func run(t *testing.T, c *crowd, vcfg view.Config, link linksim.Config, ticks int, seed uint64) runResult {
	codec := delta.MustCodec(c.schema)
	sh := view.NewShared(c.ring, codec)
	o := &observer{area: interest.NewArea(600*units, 50*units, 1<<c.schema.IndexBits), sender: newSender(t, sh, vcfg)}
	recv := snapstream.NewReceiver(delta.MustCodec(c.schema), c.schema, vcfg.History)
	down, _ := linksim.New(link, seed)
	up, _ := linksim.New(link, seed+1)
	dt := time.Second / tickRate

	want := make(map[uint32]*snapshot.Snapshot) // the view sent at each tick
	where := make(map[uint32][2]uint32)         // the centre at each tick
	var res runResult
	perTick := make([]int, ticks+1)
	for t0 := 1; t0 <= ticks; t0++ {
		tick := uint32(t0)
		now := time.Duration(t0) * dt
		world := c.step(tick)
		x, y := centre(tick)
		where[tick] = [2]uint32{x, y}
		up.Deliver(now, func(p []byte) {
			o.sender.Ack(uint32(p[0]) | uint32(p[1])<<8 | uint32(p[2])<<16 | uint32(p[3])<<24)
		})
		self := int32(t0 % world.Len()) // pretend one walker is the player: it must always go
		pkt, rep := o.sender.Append(nil, tick, o.candidates(c, x, y, self))
		if !rep.Skipped {
			if len(pkt) > vcfg.PacketCap {
				t.Fatalf("tick %d: packet of %d bytes over the %d cap", tick, len(pkt), vcfg.PacketCap)
			}
			res.maxPacket = max(res.maxPacket, len(pkt))
			perTick[t0] = len(pkt)
			v := snapshot.New(c.schema)
			v.CopyFrom(o.sender.LastView())
			want[tick] = v
			res.inView = rep.InView
			down.Send(now, pkt)
		}
		down.Deliver(now, func(p []byte) {
			h, err := recv.Receive(p)
			if err != nil {
				return
			}
			res.decoded++
			got := recv.Snapshot(h.Tick)
			if !got.Equal(want[h.Tick]) {
				res.mismatched++
			}
			// Information hiding: every entity the client holds was within
			// reach of the client at that tick.
			ring := c.ring.At(h.Tick)
			if ring == nil {
				return
			}
			at := where[h.Tick]
			for _, id := range got.IDs() {
				row := c.ring.Row(h.Tick, id.Index)
				ex, ey := ring.Value(int(row), traffic.FieldX), ring.Value(int(row), traffic.FieldY)
				if reach := uint64(650 * units); interest.Dist2(ex, ey, at[0], at[1]) > reach*reach {
					res.outside++
				}
			}
		})
		var b [4]byte
		n := recv.Newest()
		b[0], b[1], b[2], b[3] = byte(n), byte(n>>8), byte(n>>16), byte(n>>24)
		up.Send(now, b[:])
	}
	for s := 1; s+tickRate-1 <= ticks; s++ {
		sum := 0
		for _, n := range perTick[s : s+tickRate] {
			sum += n
		}
		res.maxSecond = max(res.maxSecond, sum)
	}
	res.stats = o.sender.Stats()
	res.maxAge = o.sender.MaxDeferral()
	return res
}

// A crowded world over bursty loss both ways: no datagram over the cap, the
// budget held, nothing outside the area, no starvation, no desync.
func TestBudgetHeldInACrowd(t *testing.T) {
	c := newCrowd(t, 2000, 0.3, 1)
	cfg := view.Config{History: history, PacketCap: 1195, Rate: 4000, TickRate: tickRate}
	link := linksim.Config{Loss: 0.1, BurstLen: 3, Latency: 40 * time.Millisecond, Jitter: 10 * time.Millisecond}
	r := run(t, c, cfg, link, 3000, 1)
	perTick := cfg.Rate / tickRate
	t.Logf("decoded %d, mismatched %d, outside %d, max packet %d, max bytes in a second %d (budget %.0f), %d bytes in all, in view %d, sent %d entities, deferrals %d, max deferral %d ticks, oldest value %d ticks (bound %d), lean %d, full %d/%d/%d",
		r.decoded, r.mismatched, r.outside, r.maxPacket, r.maxSecond, cfg.Rate, r.stats.Bytes, r.inView, r.stats.EntitiesSent, r.stats.Deferrals, r.stats.MaxDeferral, r.stats.MaxValueAge, r.maxAge,
		r.stats.Lean, r.stats.FullNoAck, r.stats.FullTooOld, r.stats.FullNotSmaller)
	if r.mismatched != 0 {
		t.Errorf("%d decoded ticks differ from the view sent", r.mismatched)
	}
	if r.outside != 0 {
		t.Errorf("%d entities held outside the area", r.outside)
	}
	figuretest.Hold(t, "budget-crowd", fmt.Sprintf("%d of %s decoded ticks wrong, %d entities held outside 768 px, largest packet %d bytes, at most %s bytes in any one-second window (the budget, a tick's carry and one packet's debt allow %s), %d entities in view, oldest value held %d ticks (bound %d)",
		r.mismatched, figures.Thousands(r.decoded), r.outside, r.maxPacket, figures.Thousands(r.maxSecond), figures.Thousands(int(cfg.Rate+perTick)+r.maxPacket), r.inView, r.stats.MaxValueAge, r.maxAge))
	// Over the run the sender spends no more than the budget. In one second
	// it may spend, beyond the budget and the allowance it starts with, the
	// debt the second's last packet leaves: the values a packet must carry
	// (the player's own, and those about to outlive the ring while the
	// budget is in credit) go whatever the allowance.
	if total, budget := float64(r.stats.Bytes), cfg.Rate*3000/tickRate; total > budget+perTick {
		t.Errorf("%.0f bytes in all, budget %.0f", total, budget)
	}
	if float64(r.maxSecond) > cfg.Rate+perTick+float64(r.maxPacket) {
		t.Errorf("%d bytes in one second, budget %.0f (+%.0f for one tick, +%d for one packet's debt)", r.maxSecond, cfg.Rate, perTick, r.maxPacket)
	}
	if r.decoded < 2000 {
		t.Errorf("only %d of 3000 ticks decoded", r.decoded)
	}
	if r.stats.Deferrals == 0 {
		t.Error("the budget never deferred anything: the test does not test the budget")
	}
	// No starvation: an entity in view never holds a value older than the
	// sender's bound, and one entering waits at most two seconds.
	if r.stats.MaxValueAge > r.maxAge {
		t.Errorf("a client held a value %d ticks old; the bound is %d", r.stats.MaxValueAge, r.maxAge)
	}
	if bound := uint32(2 * tickRate); r.stats.MaxDeferral > bound {
		t.Errorf("an entity waited %d ticks; the bound is %d", r.stats.MaxDeferral, bound)
	}
}

// A client that acknowledges nothing gets a view without baseline only every
// FullInterval ticks, each within the tick's allowance, never one a tick.
func TestSilentClientFullViewsRateLimited(t *testing.T) {
	c := newCrowd(t, 1000, 0.3, 3)
	sh := view.NewShared(c.ring, delta.MustCodec(c.schema))
	cfg := view.Config{History: history, Rate: 6000, TickRate: tickRate, FullInterval: 6}
	o := &observer{area: interest.NewArea(600*units, 50*units, 1<<c.schema.IndexBits), sender: newSender(t, sh, cfg)}
	sent, biggest := 0, 0
	for t0 := 1; t0 <= 300; t0++ {
		tick := uint32(t0)
		c.step(tick)
		x, y := centre(tick)
		pkt, rep := o.sender.Append(nil, tick, o.candidates(c, x, y, -1))
		if rep.Skipped {
			continue
		}
		sent++
		biggest = max(biggest, len(pkt))
		if rep.Why != snapstream.FullNoAck {
			t.Fatalf("tick %d: %v without any ack", tick, rep.Why)
		}
	}
	if sent != 50 {
		t.Fatalf("%d full views in 300 ticks to a silent client, want 50 (one every 6 ticks)", sent)
	}
	if biggest > int(cfg.Rate/tickRate) {
		t.Fatalf("a full view of %d bytes exceeds the tick's allowance of %.0f", biggest, cfg.Rate/tickRate)
	}
}

// plainFormat hides the codec's ChangesAppender: a sender using it has the
// codec compare the snapshots itself.
type plainFormat struct{ snapstream.Format }

// With a budget that sends every change, the sender hands the codec the
// changes it found while it merged. Tick by tick, as entities walk, enter
// and leave the view, and as acknowledgements come late or not at all, its
// packets are the ones the codec writes comparing the views itself, and
// they decode to the view sent.
func TestChangesHandedToTheCodec(t *testing.T) {
	c := newCrowd(t, 2000, 0.3, 5)
	cfg := view.Config{History: history, Rate: 1e6, TickRate: tickRate}
	area := interest.NewArea(600*units, 50*units, 1<<c.schema.IndexBits)
	o := &observer{area: area, sender: newSender(t, view.NewShared(c.ring, delta.MustCodec(c.schema)), cfg)}
	plain := newSender(t, view.NewShared(c.ring, plainFormat{delta.MustCodec(c.schema)}), cfg)
	recv := snapstream.NewReceiver(delta.MustCodec(c.schema), c.schema, history)
	rng := rand.New(rand.NewPCG(5, 6))
	var deltas, changed, entered, left int
	for t0 := 1; t0 <= 900; t0++ {
		tick := uint32(t0)
		c.step(tick)
		if t0 > 3 && rng.IntN(4) != 0 { // three acks in four arrive, 100 ms late
			o.sender.Ack(tick - 3)
			plain.Ack(tick - 3)
		}
		x, y := centre(4 * tick) // a brisk walk: the view changes
		cands := o.candidates(c, x, y, -1)
		cands2 := append([]view.Candidate(nil), cands...)
		got, rep := o.sender.Append(nil, tick, cands)
		want, _ := plain.Append(nil, tick, cands2)
		if !bytes.Equal(got, want) {
			t.Fatalf("tick %d: handed the changes, %d bytes; comparing itself, %d bytes", tick, len(got), len(want))
		}
		if rep.Skipped {
			continue
		}
		if rep.Deferred != 0 {
			t.Fatalf("tick %d: %d entities deferred under a budget meant to send all", tick, rep.Deferred)
		}
		h, err := recv.Receive(got)
		if err != nil {
			t.Fatalf("tick %d: %v", tick, err)
		}
		if !recv.Snapshot(h.Tick).Equal(o.sender.LastView()) {
			t.Fatalf("tick %d: the decoded view differs from the view sent", tick)
		}
		if rep.Why == snapstream.SentDelta {
			deltas++
			changed += rep.Sent
			left += rep.Removed
			entered += rep.InView - (recv.Snapshot(h.Baseline).Len() - rep.Removed)
		}
	}
	t.Logf("%d deltas: %d entities sent, %d entered, %d left", deltas, changed, entered, left)
	if deltas < 800 || entered < 100 || left < 100 {
		t.Fatalf("%d deltas, %d entities entered, %d left: the views did not change enough to test", deltas, entered, left)
	}
}
