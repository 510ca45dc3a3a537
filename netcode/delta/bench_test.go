package delta_test

import (
	"fmt"
	"testing"

	"github.com/sightline-game/sightline/netcode/delta"
	"github.com/sightline-game/sightline/netcode/refformat"
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
	"github.com/sightline-game/sightline/netcode/traffic"
)

// benchWorlds returns a ring of consecutive snapshots of the traffic model.
func benchWorlds(b *testing.B, entities int, moving float64, n int) []*snapshot.Snapshot {
	cfg := traffic.DefaultConfig()
	cfg.Entities, cfg.Moving = entities, moving
	w, err := traffic.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	out := make([]*snapshot.Snapshot, n)
	for i := range out {
		w.Step()
		out[i] = snapshot.New(w.Schema())
		w.Fill(out[i])
	}
	return out
}

// Encode and decode one delta against a baseline 2 ticks old, at 1000
// entities, reporting time per entity and bytes per packet beside the
// byte-aligned reference format's.
func BenchmarkDelta(b *testing.B) {
	for _, moving := range []float64{0.15, 1} {
		const entities, age = 1000, 2
		worlds := benchWorlds(b, entities, moving, 64)
		c := delta.MustCodec(worlds[0].Schema())
		buf := make([]byte, 0, 16<<10)
		name := fmt.Sprintf("moving=%.0f%%", moving*100)

		b.Run("encode/"+name, func(b *testing.B) {
			maskBytes := 0
			for k := range 64 - age {
				maskBytes += refformat.ByteMaskDeltaSize(worlds[k], worlds[k+age])
			}
			b.ReportAllocs()
			i, bytes := 0, 0
			for b.Loop() {
				k := i % (64 - age)
				base, cur := worlds[k], worlds[k+age]
				buf = c.AppendDelta(buf[:0], uint32(i+age+1), uint32(i+1), base, cur)
				bytes += len(buf)
				i++
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(i*entities), "ns/entity")
			b.ReportMetric(float64(bytes)/float64(i), "B/packet")
			b.ReportMetric(float64(maskBytes)/float64(64-age), "bytemask-B/packet")
		})

		b.Run("decode/"+name, func(b *testing.B) {
			// Pre-encode packets so the loop measures decoding only.
			packets := make([][]byte, 62)
			headers := make([]snapstream.Header, 62)
			for i := range packets {
				packets[i] = c.AppendDelta(nil, uint32(i+age+1), uint32(i+1), worlds[i], worlds[i+age])
				h, err := c.ReadHeader(packets[i], uint32(i+1))
				if err != nil {
					b.Fatal(err)
				}
				headers[i] = h
			}
			out := snapshot.New(worlds[0].Schema())
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				k := i % 62
				if err := c.Decode(packets[k], headers[k], worlds[k], out); err != nil {
					b.Fatal(err)
				}
				i++
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(i*entities), "ns/entity")
		})
	}
}

// BenchmarkFull encodes and decodes full snapshots of 1000 entities.
func BenchmarkFull(b *testing.B) {
	worlds := benchWorlds(b, 1000, 0.15, 1)
	c := delta.MustCodec(worlds[0].Schema())
	buf := c.AppendFull(nil, 1, worlds[0])
	h, _ := c.ReadHeader(buf, 0)
	out := snapshot.New(worlds[0].Schema())
	b.Run("encode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf = c.AppendFull(buf[:0], 1, worlds[0])
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*1000), "ns/entity")
		b.ReportMetric(float64(len(buf)), "B/packet")
		b.ReportMetric(float64(refformat.FullSize(worlds[0])), "bytealigned-B/packet")
	})
	b.Run("decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := c.Decode(buf, h, nil, out); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*1000), "ns/entity")
	})
}

// The steady-state encode and decode allocate nothing.
func TestDeltaAllocatesNothing(t *testing.T) {
	worlds := benchWorlds(&testing.B{}, 1000, 0.15, 4)
	c := delta.MustCodec(worlds[0].Schema())
	buf := make([]byte, 0, 16<<10)
	out := snapshot.New(worlds[0].Schema())
	allocs := testing.AllocsPerRun(50, func() {
		buf = c.AppendDelta(buf[:0], 3, 1, worlds[0], worlds[2])
		h, err := c.ReadHeader(buf, 2)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Decode(buf, h, worlds[0], out); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per encode+decode, want 0", allocs)
	}
	if !out.Equal(worlds[2]) {
		t.Fatal("decoded state differs")
	}
}
