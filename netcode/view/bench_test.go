package view_test

import (
	"math/rand/v2"
	"testing"

	"github.com/sightline-game/sightline/netcode/delta"
	"github.com/sightline-game/sightline/netcode/interest"
	"github.com/sightline-game/sightline/netcode/view"
)

// One server tick of the whole per-client pipeline with 2000 entities and
// 256 clients each seeing about 100: interest query, priorities, budget,
// encode against the acknowledged view, record.
func BenchmarkTick2000Entities256Clients(b *testing.B) {
	const clients, radius = 256, 517 * units // 5% of the world's area: ~100 of 2000
	c := newCrowd(b, 2000, 0.3, 1)
	sh := view.NewShared(c.ring, delta.MustCodec(c.schema))
	rng := rand.New(rand.NewPCG(1, 1))
	obs := make([]*observer, clients)
	pos := make([][2]uint32, clients)
	for i := range obs {
		obs[i] = &observer{area: interest.NewArea(radius, 40*units, 1<<c.schema.IndexBits),
			sender: newSender(b, sh, view.Config{History: history, Rate: 8000, TickRate: tickRate})}
		pos[i] = [2]uint32{uint32(2000 + rng.IntN(28000)), uint32(2000 + rng.IntN(28000))}
	}
	buf := make([]byte, 0, 2048)
	tick := uint32(0)
	var bytes, inView, packets int
	step := func() {
		tick++
		c.step(tick)
		for i, o := range obs {
			if tick > 3 {
				o.sender.Ack(tick - 3) // a client about 100 ms away acknowledges
			}
			var rep view.Report
			buf, rep = o.sender.Append(buf[:0], tick, o.candidates(c, pos[i][0], pos[i][1], -1))
			if !rep.Skipped {
				bytes += rep.Bytes
				inView += rep.InView
				packets++
			}
		}
	}
	for range 3 * history { // every slot of the world ring filled once
		step()
	}
	bytes, inView, packets = 0, 0, 0
	b.ReportAllocs()
	for b.Loop() {
		step()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*clients), "ns/client")
	b.ReportMetric(float64(inView)/float64(max(packets, 1)), "entities-in-view")
	b.ReportMetric(float64(bytes)/float64(max(packets, 1)), "B/packet")
	hist := 0
	for _, o := range obs {
		hist += o.sender.HistoryBytes()
	}
	b.ReportMetric(float64(hist)/clients, "history-B/client")
	// The naive way: every client keeps History+1 copies of the snapshot it sent.
	naive := (history + 1) * 2000 * (len(c.schema.Fields)*4 + 4)
	b.ReportMetric(float64(naive), "naive-history-B/client")
}

func TestPipelineAllocatesNothing(t *testing.T) {
	c := newCrowd(t, 1000, 0.3, 2)
	sh := view.NewShared(c.ring, delta.MustCodec(c.schema))
	o := &observer{area: interest.NewArea(600*units, 40*units, 1<<c.schema.IndexBits), sender: newSender(t, sh, view.Config{History: history})}
	buf := make([]byte, 0, 2048)
	tick := uint32(0)
	step := func() {
		tick++
		c.step(tick)
		if tick > 2 {
			o.sender.Ack(tick - 2)
		}
		x, y := centre(tick)
		buf, _ = o.sender.Append(buf[:0], tick, o.candidates(c, x, y, 0))
	}
	for range 200 {
		step()
	}
	if n := testing.AllocsPerRun(100, step); n != 0 {
		t.Fatalf("%v allocations per tick", n)
	}
}
