package replica_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/sightline-game/sightline/netcode/linksim"
	"github.com/sightline-game/sightline/netcode/replica"
)

// modelRec is what the test's game holds for one id.
type modelRec struct {
	gen     uint16
	deleted bool
	payload []byte
}

// simRun drives one Sender and one Receiver through a pair of simulated
// links and checks every datagram the sender produces.
type simRun struct {
	t        *testing.T
	s        *replica.Sender
	r        *replica.Receiver
	down, up *linksim.Link
	maxSends int

	cleared  map[uint32]uint32    // id -> newest revision acknowledged while newest
	wire     map[[2]uint32]int    // (id, rev) -> times sent
	reported map[uint32][2]uint32 // id -> (gen, rev) last given to OnChange
	changes  int
	buf, ack []byte
}

func newSimRun(t *testing.T, cfg linksim.Config, seed uint64, scfg replica.SenderConfig) *simRun {
	down, err := linksim.New(cfg, seed)
	if err != nil {
		t.Fatal(err)
	}
	up, err := linksim.New(cfg, seed^0x5eed)
	if err != nil {
		t.Fatal(err)
	}
	sr := &simRun{
		t: t, s: replica.NewSender(scfg), r: replica.NewReceiver(replica.ReceiverConfig{}),
		down: down, up: up, maxSends: maxSends(scfg),
		cleared: map[uint32]uint32{}, wire: map[[2]uint32]int{}, reported: map[uint32][2]uint32{},
		buf: make([]byte, 0, 1500), ack: make([]byte, 0, 1500),
	}
	sr.r.OnChange(func(rec replica.Record) {
		sr.changes++
		if last, ok := sr.reported[rec.ID]; ok {
			g, rev := uint16(last[0]), last[1]
			regress := rec.Generation == g && rec.Revision <= rev ||
				rec.Generation != g && int16(rec.Generation-g) < 0
			if regress {
				t.Fatalf("OnChange regressed id %d: gen %d rev %d after gen %d rev %d",
					rec.ID, rec.Generation, rec.Revision, g, rev)
			}
		}
		sr.reported[rec.ID] = [2]uint32{uint32(rec.Generation), rec.Revision}
	})
	return sr
}

// step runs one tick at time now: acks reach the sender, the sender sends
// what is due, records reach the receiver, which sends its acks back.
func (sr *simRun) step(now time.Duration) {
	t := sr.t
	sr.up.Deliver(now, func(p []byte) {
		as, err := replica.ParseAcks(p)
		if err != nil {
			t.Fatal(err)
		}
		for a, ok := as.Next(); ok; a, ok = as.Next() {
			// An ack naming the sender's newest revision clears it.
			if st, held := sr.s.Record(a.ID); held && st.Generation == a.Generation && st.Revision == a.Revision {
				sr.cleared[a.ID] = max(sr.cleared[a.ID], a.Revision)
			}
		}
		if err := sr.s.HandleAck(p); err != nil {
			t.Fatal(err)
		}
	})
	for {
		p, n := sr.s.AppendDue(sr.buf[:0], now, 1200)
		if n == 0 {
			break
		}
		if len(p) > 1200 {
			t.Fatalf("datagram of %d bytes", len(p))
		}
		for _, rec := range parse(t, p) {
			if c, ok := sr.cleared[rec.ID]; ok && rec.Revision <= c {
				t.Fatalf("id %d rev %d sent after rev %d was acknowledged", rec.ID, rec.Revision, c)
			}
			k := [2]uint32{rec.ID, rec.Revision}
			sr.wire[k]++
			if sr.wire[k] > sr.maxSends {
				t.Fatalf("id %d rev %d sent %d times, at most %d fit in GiveUpAfter", rec.ID, rec.Revision, sr.wire[k], sr.maxSends)
			}
		}
		sr.down.Send(now, p)
	}
	sr.down.Deliver(now, func(p []byte) {
		ack, err := sr.r.Handle(p, sr.ack[:0])
		if err != nil {
			t.Fatal(err)
		}
		if len(ack) > 0 {
			sr.up.Send(now, ack)
		}
	})
}

func randomPayload(rng *rand.Rand) []byte {
	n := rng.IntN(40)
	if rng.IntN(20) == 0 {
		n = 300 + rng.IntN(replica.MaxPayload-300+1)
	}
	p := make([]byte, n)
	for i := range p {
		p[i] = byte(rng.Uint32())
	}
	return p
}

// TestConvergesOverLossyLinks publishes, updates, deletes and reuses ids at
// random for a few thousand ticks over links that lose 30% of datagrams
// (independently or in bursts), reorder and duplicate them, both ways. After
// a quiet period the receiver must hold exactly the sender's newest state.
func TestConvergesOverLossyLinks(t *testing.T) {
	base := linksim.Config{
		Loss: 0.3, Latency: 40 * ms, Jitter: 20 * ms,
		Reorder: 0.2, ReorderDelay: 60 * ms, Duplicate: 0.1,
	}
	bursty := base
	bursty.BurstLen = 4
	for _, tc := range []struct {
		name string
		cfg  linksim.Config
		seed uint64
	}{
		{"independent", base, 1},
		{"independent2", base, 2},
		{"bursty", bursty, 3},
		{"bursty2", bursty, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// A minute before giving up: about 60 sends at 51% loss per
			// round trip, so giving up would take 0.51^60 ~ 3e-18. The
			// default 10 s (12 sends, 3e-4) would fail a run of thousands
			// of revisions by design.
			sr := newSimRun(t, tc.cfg, tc.seed, replica.SenderConfig{GiveUpAfter: time.Minute})
			rng := rand.New(rand.NewPCG(tc.seed, 77))
			model := map[uint32]*modelRec{}
			const (
				ids   = 64
				tick  = 20 * ms
				busy  = 3000 // ticks with changes
				quiet = 1500 // ticks without: 30 s, 32 sends of each last revision
			)
			ops := 0
			for k := range busy + quiet {
				now := time.Duration(k) * tick
				for k < busy && rng.Float64() < 0.6 {
					ops++
					id := uint32(rng.IntN(ids))
					m := model[id]
					switch {
					case m == nil:
						m = &modelRec{gen: uint16(rng.IntN(3)), payload: randomPayload(rng)}
						model[id] = m
						mustOK(t, sr.s.Publish(id, m.gen, m.payload))
					case m.deleted:
						// The id comes back as a new thing.
						m.gen++
						m.deleted, m.payload = false, randomPayload(rng)
						mustOK(t, sr.s.Publish(id, m.gen, m.payload))
					default:
						switch c := rng.IntN(10); {
						case c < 6:
							m.payload = randomPayload(rng)
							mustOK(t, sr.s.Publish(id, m.gen, m.payload))
						case c < 9:
							m.deleted = true
							mustOK(t, sr.s.Delete(id, m.gen))
						default:
							// Replaced by a new thing without a deletion first.
							m.gen++
							m.payload = randomPayload(rng)
							mustOK(t, sr.s.Publish(id, m.gen, m.payload))
						}
					}
				}
				sr.step(now)
			}

			if sr.s.Failing() || sr.s.Pending() != 0 {
				t.Fatalf("after the quiet period: failing %v, %d pending, stats %+v",
					sr.s.Failing(), sr.s.Pending(), sr.s.Stats())
			}
			liveIDs := 0
			for id, m := range model {
				gen, payload, ok := sr.r.Get(id)
				if m.deleted {
					if ok {
						t.Errorf("id %d: deleted at the sender, live at the receiver (gen %d)", id, gen)
					}
					continue
				}
				liveIDs++
				if !ok || gen != m.gen || !bytes.Equal(payload, m.payload) {
					t.Errorf("id %d: receiver has gen %d (%d bytes) %v, sender gen %d (%d bytes)",
						id, gen, len(payload), ok, m.gen, len(m.payload))
				}
			}
			if sr.r.Len() != liveIDs {
				t.Errorf("receiver holds %d live records, sender %d", sr.r.Len(), liveIDs)
			}
			st, rs := sr.s.Stats(), sr.r.Stats()
			if uint64(sr.changes) != rs.Changes {
				t.Errorf("%d OnChange calls, %d changes counted", sr.changes, rs.Changes)
			}
			if rs.Duplicates == 0 || rs.Stale == 0 || st.Resends == 0 || st.StaleAcks == 0 {
				t.Errorf("the run did not exercise duplicates, stale revisions and resends: %+v %+v", st, rs)
			}
			dl, ul := sr.down.Stats(), sr.up.Stats()
			t.Logf("%d ops; sender %+v; receiver %+v; links down %+v up %+v", ops, st, rs, dl, ul)
		})
	}
}

// TestGivesUpOnDeadLink: with every datagram lost, each record is resent
// with its timeout doubling up to MaxResendAfter, then given up
// GiveUpAfter after its first send, and the sender reports Failing.
func TestGivesUpOnDeadLink(t *testing.T) {
	s := replica.NewSender(replica.SenderConfig{})
	for id := range uint32(5) {
		mustOK(t, s.Publish(id, 0, []byte(fmt.Sprint("record ", id))))
	}
	var sends []time.Duration // when record 0 went out
	var failedAt time.Duration
	for now := time.Duration(0); now < 15*time.Second; now += 10 * ms {
		for {
			p, n := s.AppendDue(nil, now, 0)
			if n == 0 {
				break
			}
			for _, rec := range parse(t, p) {
				if rec.ID == 0 {
					sends = append(sends, now)
				}
			}
		}
		if s.Failing() && failedAt == 0 {
			failedAt = now
		}
	}
	// 0, 200, 600, 1400 ms (the timeout doubling from 200 ms), then every
	// second up to 9.4 s; the next due time, 10.4 s, is past GiveUpAfter.
	want := []time.Duration{0, 200 * ms, 600 * ms, 1400 * ms}
	for at := 2400 * ms; at < replica.DefaultGiveUpAfter; at += replica.DefaultMaxResendAfter {
		want = append(want, at)
	}
	if !slices.Equal(sends, want) {
		t.Fatalf("record 0 sent at %v, want %v", sends, want)
	}
	if failedAt != 10400*ms {
		t.Fatalf("failing at %v, want 10.4s", failedAt)
	}
	st := s.Stats()
	if !s.Failing() || st.GivenUp != 5 || s.Pending() != 0 || st.Sends != uint64(5*len(want)) {
		t.Fatalf("failing %v, pending %d, stats %+v; want 5 given up after %d sends each", s.Failing(), s.Pending(), st, len(want))
	}
	for id := range uint32(5) {
		if rs, _ := s.Record(id); !rs.GivenUp || rs.Attempts != len(want) {
			t.Fatalf("id %d: %+v", id, rs)
		}
	}
}

// maxSends is how many times a revision can go out before cfg gives up on
// it: the sends of the backoff schedule that start within GiveUpAfter (a
// run's ticks only delay them).
func maxSends(cfg replica.SenderConfig) int {
	first, limit, giveUp := cfg.ResendAfter, cfg.MaxResendAfter, cfg.GiveUpAfter
	if first <= 0 {
		first = replica.DefaultResendAfter
	}
	if limit <= 0 {
		limit = replica.DefaultMaxResendAfter
	}
	if giveUp <= 0 {
		giveUp = replica.DefaultGiveUpAfter
	}
	n := 0
	for at, wait := time.Duration(0), first; at < giveUp; at, wait = at+wait, min(2*wait, max(limit, first)) {
		n++
	}
	return n
}

// steadyPair is a sender and receiver exchanging directly, for the
// allocation test and the benchmark. Each round changes a few records,
// deletes one and brings an id back with a new generation.
type steadyPair struct {
	s        *replica.Sender
	r        *replica.Receiver
	payloads [][]byte
	buf, ack []byte
	now      time.Duration
	round    int
	bytes    int
}

func newSteadyPair(records int) *steadyPair {
	sp := &steadyPair{
		s: replica.NewSender(replica.SenderConfig{}),
		// Few tombstones, so that evictions happen in the steady state too.
		r:   replica.NewReceiver(replica.ReceiverConfig{MaxTombstones: 8}),
		buf: make([]byte, 0, 1500), ack: make([]byte, 0, 1500),
	}
	for i := range records {
		p := make([]byte, 16+i%48)
		sp.payloads = append(sp.payloads, p)
		sp.s.Publish(uint32(i), 0, p)
	}
	return sp
}

func (sp *steadyPair) round1() error {
	sp.round++
	n := len(sp.payloads)
	for k := range 8 {
		i := (sp.round*8 + k) % n
		sp.payloads[i][0]++
		if err := sp.s.Publish(uint32(i), uint16(sp.round/n), sp.payloads[i]); err != nil {
			return err
		}
	}
	// One deletion per round, and the id back next round.
	victim := uint32((sp.round*13 + 5) % n)
	if st, ok := sp.s.Record(victim); ok && !st.Deleted {
		if err := sp.s.Delete(victim, st.Generation); err != nil {
			return err
		}
	}
	sp.now += 20 * ms
	for {
		p, k := sp.s.AppendDue(sp.buf[:0], sp.now, 1200)
		if k == 0 {
			break
		}
		sp.bytes += len(p)
		ack, err := sp.r.Handle(p, sp.ack[:0])
		if err != nil {
			return err
		}
		if err := sp.s.HandleAck(ack); err != nil {
			return err
		}
	}
	if sp.s.Pending() != 0 {
		return fmt.Errorf("%d pending after a lossless exchange", sp.s.Pending())
	}
	return nil
}

func TestSteadyStateAllocatesNothing(t *testing.T) {
	sp := newSteadyPair(256)
	for range 2000 { // every id deleted and reused a few times
		mustOK(t, sp.round1())
	}
	if sp.r.Stats().Evicted == 0 {
		t.Fatal("no tombstone evicted during warm-up")
	}
	var err error
	if n := testing.AllocsPerRun(500, func() {
		if e := sp.round1(); e != nil {
			err = e
		}
	}); n != 0 {
		t.Fatalf("%v allocations per round", n)
	}
	mustOK(t, err)
}

// BenchmarkRound measures one round of 256 records: 8 updated and one
// deleted or brought back, packed, applied and acknowledged.
func BenchmarkRound(b *testing.B) {
	sp := newSteadyPair(256)
	for range 1000 {
		if err := sp.round1(); err != nil {
			b.Fatal(err)
		}
	}
	sp.bytes = 0
	b.ReportAllocs()
	rounds := 0
	for b.Loop() {
		if err := sp.round1(); err != nil {
			b.Fatal(err)
		}
		rounds++
	}
	b.ReportMetric(float64(sp.bytes)/float64(rounds), "B/round")
}

// BenchmarkParseRecords measures validating and reading a full datagram.
func BenchmarkParseRecords(b *testing.B) {
	p := []byte{replica.TypeRecords}
	for i := 0; len(p) < 1100; i++ {
		p = replica.AppendRecord(p, replica.Record{ID: uint32(i * 37), Generation: 3, Revision: uint32(70000 + i), Payload: make([]byte, 24)})
	}
	b.SetBytes(int64(len(p)))
	b.ReportAllocs()
	for b.Loop() {
		rs, err := replica.ParseRecords(p)
		if err != nil {
			b.Fatal(err)
		}
		for _, ok := rs.Next(); ok; _, ok = rs.Next() {
		}
	}
}
