package view

import (
	"bytes"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/sightline-game/sightline/netcode/delta"
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
)

// refSender is the sender's rule written plainly, with maps and sorts: per
// slot accumulators, a comparison sort of the changed and new entities by
// accumulated priority, the view and baseline rebuilt from the ring for
// each packet. The Sender must send exactly what it sends.
type refSender struct {
	cfg            Config
	ring           *WorldRing
	format         snapstream.Format
	views          []refView // by tick modulo History+1
	acked          uint32
	lastFull       uint32
	drops          int // packets over the cap rebuilt with less
	tokens         float64
	acc            map[uint16]float32
	since, seen    map[uint16]uint32
	waiting        []uint16
	stats          SenderStats
	lastView       *snapshot.Snapshot
	perTick        float64
	maxAge         uint32
	fieldBits      []uint8
	newBits, slots int
	scale          costScale
}

type refView struct {
	tick    uint32
	entries []Entry
}

func newRefSender(ring *WorldRing, f snapstream.Format, cfg Config) *refSender {
	cfg = cfg.withDefaults()
	s := ring.Schema()
	r := &refSender{cfg: cfg, ring: ring, format: f, views: make([]refView, cfg.History+1),
		acc: map[uint16]float32{}, since: map[uint16]uint32{}, seen: map[uint16]uint32{},
		perTick: cfg.Rate / cfg.TickRate, maxAge: uint32(max(ring.Size()-cfg.History-2, 1)),
		lastView: snapshot.New(s)}
	for _, fd := range s.Fields {
		r.fieldBits = append(r.fieldBits, fd.Bits)
	}
	r.newBits = newEntityOverhead + int(s.GenerationBits) + s.EntityBits()
	return r
}

func (r *refSender) ack(tick uint32) {
	if tick > r.acked && tick <= r.stats.newest {
		r.acked = tick
	}
}

func (r *refSender) reset() {
	clear(r.views)
	r.acked, r.lastFull = 0, 0
	for _, sl := range r.waiting {
		delete(r.acc, sl)
		delete(r.since, sl)
	}
	r.waiting = nil
}

func (r *refSender) cost(old, cur []uint32) int32 {
	n := int32(changedOverhead)
	if len(old) > 1 {
		n += int32(len(old))
	}
	for f, b := range r.fieldBits {
		if old[f] != cur[f] {
			d := int64(int32((cur[f]-old[f])<<(32-b)) >> (32 - b))
			z := uint32(d*2) ^ uint32(d>>63)
			n += int32(min(2+bits.Len32(z), 1+int(b)))
		}
	}
	return n
}

func (r *refSender) value(tick uint32, slot uint16) []uint32 {
	w := r.ring.At(tick)
	i, ok := w.Find(slot)
	if !ok {
		panic("no such entity")
	}
	return w.Row(i)
}

type refItem struct {
	slot, gen    uint16
	unchanged    bool
	isNew        bool
	chosen, must bool
	row          int32
	src          uint32
	cost         int32
	key          float32
}

func (r *refSender) append(tick uint32, cands []Candidate) ([]byte, Report) {
	world := r.ring.At(tick)
	last := map[int32]Candidate{}
	for _, c := range cands {
		last[c.Row] = c
	}
	var sorted []Candidate
	for _, c := range last {
		sorted = append(sorted, c)
	}
	slices.SortFunc(sorted, func(a, b Candidate) int { return int(a.Row - b.Row) })

	var rep Report
	v := r.views[r.acked%uint32(len(r.views))]
	base, ok := v.entries, r.acked != 0 && v.tick == r.acked
	minSrc := uint32(0)
	for _, e := range base {
		if minSrc == 0 || e.Source < minSrc {
			minSrc = e.Source
		}
	}
	usable := ok && tick-r.acked <= uint32(r.cfg.History) && (len(base) == 0 || r.ring.Holds(minSrc))
	switch {
	case usable:
		rep.Why = snapstream.SentDelta
	case r.acked == 0:
		rep.Why = snapstream.FullNoAck
	default:
		rep.Why = snapstream.FullTooOld
	}
	if !usable {
		base = nil
		if r.lastFull != 0 && tick-r.lastFull < uint32(r.cfg.FullInterval) {
			rep.Skipped = true
			r.stats.Skipped++
			return nil, rep
		}
	}
	r.tokens = min(r.tokens+r.perTick, r.perTick)
	allowance := max(min(r.tokens-float64(r.cfg.Overhead), float64(r.cfg.PacketCap)), 0)
	budget := int32(allowance*8) - headerBits
	rep.Lean = budget < 0

	// The baseline and the candidates, by slot.
	var items []refItem
	pending := func(it *refItem, p float32) {
		r.acc[it.slot] += p
		if r.since[it.slot] == 0 {
			r.since[it.slot] = tick
		}
		r.seen[it.slot] = tick
		it.key = r.acc[it.slot]
		if it.must {
			it.key = float32(math.Inf(1))
		}
	}
	inBase := map[uint16]Entry{}
	for _, e := range base {
		inBase[e.Slot] = e
	}
	for _, c := range sorted {
		id := world.ID(int(c.Row))
		it := refItem{slot: id.Index, gen: id.Generation, row: c.Row, must: c.Must, isNew: true, cost: int32(r.newBits)}
		if b, ok := inBase[id.Index]; ok {
			delete(inBase, id.Index)
			if b.Generation != id.Generation {
				rep.Removed++
				delete(r.acc, b.Slot)
				delete(r.since, b.Slot)
			} else {
				was, cur := r.value(b.Source, b.Slot), world.Row(int(c.Row))
				if slices.Equal(was, cur) {
					it.unchanged = true
					items = append(items, it)
					continue
				}
				it.isNew, it.src, it.cost = false, b.Source, r.cost(was, cur)
				if !rep.Lean && tick-b.Source >= r.maxAge {
					it.must = true
				}
			}
		}
		pending(&it, c.Priority)
		items = append(items, it)
	}
	for sl := range inBase {
		rep.Removed++
		delete(r.acc, sl)
		delete(r.since, sl)
	}
	budget -= int32(rep.Removed) * removedBits

	var order []int
	for k := range items {
		if !items[k].unchanged {
			order = append(order, k)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return items[order[a]].key > items[order[b]].key })
	budget = r.scale.estimated(budget)
	for _, k := range order {
		if it := &items[k]; it.must || it.cost <= budget {
			it.chosen = true
			budget -= it.cost
		}
	}

	cur, bs := snapshot.New(world.Schema()), snapshot.New(world.Schema())
	for _, e := range base {
		copy(bs.AppendUnchecked(snapshot.EntityID{Index: e.Slot, Generation: e.Generation}), r.value(e.Source, e.Slot))
	}
	for attempt := 0; ; attempt++ {
		var out []Entry
		cur.Reset()
		for _, it := range items {
			e := Entry{Slot: it.slot, Generation: it.gen, Source: tick}
			switch {
			case it.unchanged || it.chosen:
			case !it.isNew:
				e.Source = it.src
			default:
				continue
			}
			out = append(out, e)
			copy(cur.AppendUnchecked(snapshot.EntityID{Index: e.Slot, Generation: e.Generation}), r.value(e.Source, e.Slot))
		}
		var pkt []byte
		if usable {
			pkt, rep.Why = r.format.AppendDelta(nil, tick, r.acked, bs, cur), snapstream.SentDelta
			if len(pkt) >= r.format.FullLen(cur) {
				pkt, rep.Why = nil, snapstream.FullNotSmaller
			}
		}
		if pkt == nil {
			pkt = r.format.AppendFull(nil, tick, cur)
		}
		n := len(pkt)
		dropped := false
		if n > r.cfg.PacketCap && attempt < 8 {
			want := r.scale.estimated(int32((n-r.cfg.PacketCap)*8) + 8)
			for k := len(order) - 1; k >= 0 && want > 0; k-- {
				if it := &items[order[k]]; it.chosen && !it.must {
					it.chosen, dropped = false, true
					want -= it.cost
				}
			}
		}
		if dropped {
			r.drops++
			continue
		}
		if rep.Why == snapstream.SentDelta {
			var est int64
			for _, it := range items {
				if !it.unchanged && it.chosen {
					est += int64(it.cost)
				}
			}
			r.scale.observe(est, n*8-headerBits-rep.Removed*removedBits)
		}
		r.commit(tick, out, items, n, &rep)
		r.lastView.CopyFrom(cur)
		return pkt, rep
	}
}

func (r *refSender) commit(tick uint32, out []Entry, items []refItem, n int, rep *Report) {
	r.views[tick%uint32(len(r.views))] = refView{tick: tick, entries: out}
	r.tokens -= float64(n + r.cfg.Overhead)
	rep.Bytes, rep.InView = n, len(out)
	for _, e := range out {
		rep.OldestValue = max(rep.OldestValue, tick-e.Source)
	}
	var next []uint16
	for _, it := range items {
		switch {
		case it.unchanged:
		case it.chosen:
			rep.Sent++
			delete(r.acc, it.slot)
			delete(r.since, it.slot)
		default:
			rep.Deferred++
			rep.OldestDeferral = max(rep.OldestDeferral, tick-r.since[it.slot])
			next = append(next, it.slot)
		}
	}
	for _, sl := range r.waiting {
		if r.seen[sl] != tick {
			delete(r.acc, sl)
			delete(r.since, sl)
		}
	}
	r.waiting = next
	if r.stats.add(tick, r.acked, n, rep) {
		r.lastFull = tick
	}
}

// padded is a format whose packets carry pad bytes more.
type padded struct {
	snapstream.Format
	pad int
}

func (p padded) AppendFull(dst []byte, tick uint32, cur *snapshot.Snapshot) []byte {
	return append(p.Format.AppendFull(dst, tick, cur), make([]byte, p.pad)...)
}

func (p padded) FullLen(cur *snapshot.Snapshot) int { return p.Format.FullLen(cur) + p.pad }

func (p padded) AppendDelta(dst []byte, tick, baseline uint32, base, cur *snapshot.Snapshot) []byte {
	return append(p.Format.AppendDelta(dst, tick, baseline, base, cur), make([]byte, p.pad)...)
}

// The Sender sends what the plain rule sends, packet for packet, in a
// world where entities spawn, despawn and come back in reused slots, with
// candidates given in any order (some twice), priorities tied, zero or
// fractional, Must entities, budgets from starved to ample, packet caps
// that the Must entities overflow, packets over the cap, acks that lag,
// skip and stop, and resets.
func TestSenderMatchesPlainRule(t *testing.T) {
	sch := snapshot.MustSchema(7, 3, 0, snapshot.Field{Name: "x", Bits: 12}, snapshot.Field{Name: "y", Bits: 9}, snapshot.Field{Name: "f", Bits: 1}, snapshot.Field{Name: "w", Bits: 32})
	var drops int
	var deferred, lean, skipped, full uint64
	for seed := range uint64(6) {
		rng := rand.New(rand.NewPCG(seed, 11))
		ring := NewWorldRing(sch, 24)
		// Packets padded beyond what the cost model counts, so that some
		// go over the cap and are rebuilt with less.
		format := padded{delta.MustCodec(sch), int(seed) * 8}
		sh := NewShared(ring, format)
		type pair struct {
			s   *Sender
			ref *refSender
		}
		var pairs []pair
		for i := range 6 {
			cfg := Config{History: 6 + i%4, Rate: float64((1500 + 3500*int(seed%2)) * (1 + i)), TickRate: 30, PacketCap: []int{24, 40, 64, 200, 500, 950}[i], Overhead: i % 3, FullInterval: 1 + i%3}
			s, err := NewSender(sh, cfg)
			if err != nil {
				t.Fatal(err)
			}
			pairs = append(pairs, pair{s, newRefSender(ring, format, cfg)})
		}
		type ent struct {
			alive bool
			gen   uint16
			vals  [4]uint32
		}
		ents := make([]ent, 128)
		for i := range ents {
			if rng.IntN(2) == 0 {
				ents[i] = ent{alive: true, vals: [4]uint32{uint32(rng.IntN(4096)), uint32(rng.IntN(512)), uint32(rng.IntN(2)), rng.Uint32()}}
			}
		}
		mustShare := []int{40, 40, 4, 4, 2, 2}[seed]
		for tick := uint32(1); tick <= 400; tick++ {
			for i := range ents {
				e := &ents[i]
				switch r := rng.IntN(100); {
				case r < 2 && e.alive:
					e.alive = false
				case r < 4 && !e.alive:
					e.alive, e.gen = true, (e.gen+1)&7
					e.vals = [4]uint32{uint32(rng.IntN(4096)), uint32(rng.IntN(512)), uint32(rng.IntN(2)), rng.Uint32()}
				case r < 30 && e.alive:
					e.vals[0] = uint32(int(e.vals[0])+rng.IntN(21)-10) & 4095
					if rng.IntN(3) == 0 {
						e.vals[1] = uint32(rng.IntN(512))
					}
					if rng.IntN(10) == 0 {
						e.vals[3] = rng.Uint32()
					}
				}
			}
			w := ring.Begin(tick)
			for i, e := range ents {
				if e.alive {
					if err := w.Append(snapshot.EntityID{Index: uint16(i), Generation: e.gen}, e.vals[:]...); err != nil {
						t.Fatal(err)
					}
				}
			}
			ring.Commit(tick)
			for k, p := range pairs {
				if tick > 2 && rng.IntN(4) != 0 && !(k == 1 && tick%100 > 60) {
					a := tick - uint32(1+rng.IntN(5))
					p.s.Ack(a)
					p.ref.ack(a)
				}
				if rng.IntN(150) == 0 {
					p.s.Reset()
					p.ref.reset()
				}
				var cands []Candidate
				for row := range w.Len() {
					if rng.IntN(4) == 0 {
						continue
					}
					var pr float32
					switch rng.IntN(5) {
					case 0:
						pr = 1
					case 1:
						pr = 0
					case 2:
						pr = float32(rng.IntN(4))
					default:
						pr = rng.Float32() * 5
					}
					cands = append(cands, Candidate{Row: int32(row), Priority: pr, Must: rng.IntN(mustShare) == 0})
				}
				rng.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
				if len(cands) > 3 && rng.IntN(10) == 0 {
					cands = append(cands, Candidate{Row: cands[1].Row, Priority: 2.5}) // a row twice: the last counts
				}
				want, wantRep := p.ref.append(tick, slices.Clone(cands))
				got, rep := p.s.Append(nil, tick, cands)
				if rep != wantRep || !bytes.Equal(got, want) {
					t.Fatalf("seed %d tick %d sender %d: report %+v, %d bytes; the plain rule's %+v, %d bytes", seed, tick, k, rep, len(got), wantRep, len(want))
				}
				if !rep.Skipped && !p.s.LastView().Equal(p.ref.lastView) {
					t.Fatalf("seed %d tick %d sender %d: views differ", seed, tick, k)
				}
				if p.s.Stats() != p.ref.stats {
					t.Fatalf("seed %d tick %d sender %d: stats %+v, the plain rule's %+v", seed, tick, k, p.s.Stats(), p.ref.stats)
				}
				deferred += uint64(rep.Deferred)
				if rep.Lean {
					lean++
				}
				if rep.Skipped {
					skipped++
				}
				if rep.Why == snapstream.FullTooOld || rep.Why == snapstream.FullNoAck {
					full++
				}
			}
		}
		for _, p := range pairs {
			drops += p.ref.drops
		}
	}
	t.Logf("%d deferrals, %d lean packets, %d skipped, %d full, %d packets over the cap rebuilt", deferred, lean, skipped, full, drops)
	if deferred == 0 || lean == 0 || skipped == 0 || full == 0 || drops == 0 {
		t.Fatal("the runs miss a path of the sender")
	}
}
