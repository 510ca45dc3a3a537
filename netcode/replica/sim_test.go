package replica_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
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
	maxAtt   int

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
		down: down, up: up, maxAtt: scfg.MaxAttempts,
		cleared: map[uint32]uint32{}, wire: map[[2]uint32]int{}, reported: map[uint32][2]uint32{},
		buf: make([]byte, 0, 1500), ack: make([]byte, 0, 1500),
	}
	if sr.maxAtt == 0 {
		sr.maxAtt = replica.DefaultMaxAttempts
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
			if sr.wire[k] > sr.maxAtt {
				t.Fatalf("id %d rev %d sent %d times, MaxAttempts %d", rec.ID, rec.Revision, sr.wire[k], sr.maxAtt)
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
			// 30 attempts: at 51% loss per round trip, giving up would take
			// 0.51^30 ~ 2e-9; the default 10 (0.1%) would fail a run of
			// thousands of revisions by design.
			sr := newSimRun(t, tc.cfg, tc.seed, replica.SenderConfig{MaxAttempts: 30})
			rng := rand.New(rand.NewPCG(tc.seed, 77))
			model := map[uint32]*modelRec{}
			const (
				ids   = 64
				tick  = 20 * ms
				busy  = 3000 // ticks with changes
				quiet = 500  // ticks without: 10 s, more than 30 resends at 200 ms
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

// TestGivesUpOnDeadLink: with every datagram lost, each record is sent
// exactly MaxAttempts times, then given up, and the sender reports Failing.
func TestGivesUpOnDeadLink(t *testing.T) {
	sr := newSimRun(t, linksim.Config{Loss: 1, Latency: 30 * ms}, 9, replica.SenderConfig{})
	for id := range uint32(5) {
		mustOK(t, sr.s.Publish(id, 0, []byte(fmt.Sprint("record ", id))))
	}
	var failedAt time.Duration
	for now := time.Duration(0); now < 5*time.Second; now += 10 * ms {
		sr.step(now)
		if sr.s.Failing() && failedAt == 0 {
			failedAt = now
		}
	}
	st := sr.s.Stats()
	if !sr.s.Failing() || st.GivenUp != 5 || sr.s.Pending() != 0 {
		t.Fatalf("failing %v, stats %+v", sr.s.Failing(), st)
	}
	for id := range uint32(5) {
		if rs, _ := sr.s.Record(id); !rs.GivenUp || rs.Attempts != replica.DefaultMaxAttempts {
			t.Fatalf("id %d: %+v", id, rs)
		}
	}
	if st.Sends != 5*replica.DefaultMaxAttempts {
		t.Fatalf("%d sends, want %d", st.Sends, 5*replica.DefaultMaxAttempts)
	}
	// Ten sends 200 ms apart, then the tenth timer runs out: 2 s.
	if want := time.Duration(replica.DefaultMaxAttempts) * replica.DefaultResendAfter; failedAt != want {
		t.Fatalf("failing at %v, want %v", failedAt, want)
	}
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
