package protocol_test

import (
	"fmt"
	"testing"

	"github.com/sightline-game/sightline/internal/figures/figuretest"

	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/delta"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// ackGaps are the baseline ages of a client's views at 30 Hz: a round trip
// and a little, 2 to 8 ticks.
var ackGaps = []int{2, 3, 4, 4, 5, 6, 8}

// viewBytes plays a bot match and returns the mean bytes of the deltas each
// bot's view costs with each schema's codec: the view is what lies within
// ViewRadius of the bot's player (no byte budget), the baseline the view
// ackGaps ticks older.
func viewBytes(t *testing.T, schemas []*snapshot.Schema, seed uint64, ticks int) []float64 {
	t.Helper()
	const players, ring = 16, 32
	codecs := make([]*delta.Codec, len(schemas))
	for i, s := range schemas {
		codecs[i] = delta.MustCodec(s)
	}
	views := make([][ring]*snapshot.Snapshot, players)
	for p := range views {
		for i := range ring {
			views[p][i] = snapshot.New(protocol.Schema())
		}
	}
	bytes := make([]float64, len(schemas))
	packets := 0
	var buf []byte
	const r2 = protocol.ViewRadius * protocol.UnitsPerPx * protocol.ViewRadius * protocol.UnitsPerPx
	recordArena(t, seed, players, ticks, func(tick int, cur *snapshot.Snapshot) {
		slot := 0
		for i := range cur.Len() {
			if cur.Value(i, protocol.FieldKind) != protocol.KindPlayer {
				continue
			}
			if slot >= players {
				break
			}
			view := views[slot][tick%ring]
			view.Reset()
			px, py := int64(cur.Value(i, protocol.FieldX)), int64(cur.Value(i, protocol.FieldY))
			for j := range cur.Len() {
				dx, dy := int64(cur.Value(j, protocol.FieldX))-px, int64(cur.Value(j, protocol.FieldY))-py
				if dx*dx+dy*dy <= r2 {
					copy(view.AppendUnchecked(cur.ID(j)), cur.Row(j))
				}
			}
			if g := ackGaps[tick%len(ackGaps)]; tick > ring {
				base := views[slot][(tick-g)%ring]
				for k, c := range codecs {
					buf = c.AppendDelta(buf[:0], uint32(tick), uint32(tick-g), base, view)
					bytes[k] += float64(len(buf))
				}
				packets++
			}
			slot++
		}
	})
	for k := range bytes {
		bytes[k] /= float64(packets)
	}
	return bytes
}

// The game's codes and predictor make the views' deltas smaller than the
// generic coding (no codes, no predictor) of the same format.
func TestArenaViewBytes(t *testing.T) {
	names, schemas := schemaVariants()
	got := viewBytes(t, schemas, 31, 1800)
	for i, name := range names {
		t.Logf("%s: %.1f B/packet", name, got[i])
	}
	if len(got) == 3 {
		figuretest.Hold(t, "arena-view-bytes", fmt.Sprintf("a delta is %.1f bytes with the generic coding, %.1f with the game's codes and no predictor, %.1f with both", got[2], got[1], got[0]))
	} else {
		t.Errorf("%d schemas, want the game's, its codes alone and the generic coding", len(got))
	}
	if len(got) > 1 && got[0] > 0.8*got[len(got)-1] {
		t.Errorf("the game's coding: %.1f B/packet, the generic one %.1f", got[0], got[len(got)-1])
	}
}

// BenchmarkViewDelta encodes and decodes the game's deltas of one player's
// view (everything within ViewRadius) in a bot match, against baselines 6
// ticks old (a 200 ms round trip): the path the match server takes per
// client, new entities coded against their makers included.
func BenchmarkViewDelta(b *testing.B) {
	s := protocol.Schema()
	r := int64(protocol.PosQuant.Quantize(protocol.ViewRadius) - protocol.PosQuant.Quantize(0))
	var views []*snapshot.Snapshot
	recordArena(b, 3, 16, 400, func(tick int, cur *snapshot.Snapshot) {
		if tick <= 100 {
			return
		}
		v := snapshot.New(s)
		var me []uint32
		for i := range cur.Len() {
			if cur.Row(i)[protocol.FieldKind] == protocol.KindPlayer {
				me = cur.Row(i)
				break
			}
		}
		for j := range cur.Len() {
			row := cur.Row(j)
			dx, dy := int64(row[protocol.FieldX])-int64(me[protocol.FieldX]), int64(row[protocol.FieldY])-int64(me[protocol.FieldY])
			if dx*dx+dy*dy <= r*r {
				copy(v.AppendUnchecked(cur.ID(j)), row)
			}
		}
		views = append(views, v)
	})
	const age = 6
	enc, dec := delta.MustCodec(s), delta.MustCodec(s)
	out := snapshot.New(s)
	var p []byte
	for _, mode := range []string{"encode", "decode"} {
		b.Run(mode, func(b *testing.B) {
			var ents, bytes, news int
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				k := age + i%(len(views)-age)
				i++
				base, cur := views[k-age], views[k]
				tick := uint32(1000 + k)
				p = enc.AppendDelta(p[:0], tick, tick-age, base, cur)
				if mode == "decode" {
					h, err := dec.ReadHeader(p, tick)
					if err == nil {
						err = dec.Decode(p, h, base, out)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				ents += cur.Len()
				bytes += len(p)
				news += enc.LastSizes().New
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(ents), "ns/entity")
			b.ReportMetric(float64(bytes)/float64(b.N), "B/packet")
			b.ReportMetric(float64(ents)/float64(b.N), "entities/packet")
			b.ReportMetric(float64(news)/float64(b.N), "new-bits/packet")
		})
	}
}

// The codec says where a delta's bits went by the context of the changed
// entities (delta.Sizes.ByContext) and for the new ones made by a player:
// the parts add up to the whole, delta by delta, and every kind of entity
// of a bot match shows up in them.
func TestSizesByContext(t *testing.T) {
	names := []string{"players", "walking creatures", "idle creatures", "projectiles"}
	for k, want := range names {
		if got := protocol.ContextName(k); got != want {
			t.Errorf("context %d is %q, want %q", k, got, want)
		}
	}
	if got := protocol.ContextName(len(names)); got != "" {
		t.Errorf("context %d is %q, want none", len(names), got)
	}
	s := protocol.Schema()
	enc := delta.MustCodec(s)
	const ring, age = 16, 5
	var views [ring]*snapshot.Snapshot
	for i := range views {
		views[i] = snapshot.New(s)
	}
	const r2 = protocol.ViewRadius * protocol.UnitsPerPx * protocol.ViewRadius * protocol.UnitsPerPx
	var all delta.Sizes
	var buf []byte
	recordArena(t, 7, 8, 600, func(tick int, cur *snapshot.Snapshot) {
		view := views[tick%ring]
		view.Reset()
		var px, py int64
		for i := range cur.Len() {
			if cur.Value(i, protocol.FieldKind) == protocol.KindPlayer {
				px, py = int64(cur.Value(i, protocol.FieldX)), int64(cur.Value(i, protocol.FieldY))
				break
			}
		}
		for j := range cur.Len() {
			dx, dy := int64(cur.Value(j, protocol.FieldX))-px, int64(cur.Value(j, protocol.FieldY))-py
			if dx*dx+dy*dy <= r2 {
				copy(view.AppendUnchecked(cur.ID(j)), cur.Row(j))
			}
		}
		if tick <= ring {
			return
		}
		buf = enc.AppendDelta(buf[:0], uint32(tick), uint32(tick-age), views[(tick-age)%ring], view)
		z := enc.LastSizes()
		var n, bits int
		for _, c := range z.ByContext {
			n, bits = n+c.Entities, bits+c.Bits
		}
		if n != z.ChangedEntities || bits != z.Masks+z.Residuals {
			t.Fatalf("tick %d: %d changed entities in %d bits of masks and residuals, by context %d in %d bits", tick, z.ChangedEntities, z.Masks+z.Residuals, n, bits)
		}
		if z.MadeEntities > z.NewEntities || z.NewIDs+z.Made > z.New || z.NewEntities > 0 && z.NewIDs == 0 {
			t.Fatalf("tick %d: %d new entities in %d bits, ids %d bits, %d made in %d bits", tick, z.NewEntities, z.New, z.NewIDs, z.MadeEntities, z.Made)
		}
		all.Add(z)
	})
	for k, name := range names[:3] {
		c := all.ByContext[k]
		t.Logf("%s: %d changes, %.1f bits each", name, c.Entities, float64(c.Bits)/float64(max(c.Entities, 1)))
		if c.Entities == 0 || c.Bits == 0 {
			t.Errorf("no changes of %s", name)
		}
	}
	t.Logf("new entities: %d, ids %d bits; %d made by a player in %d bits", all.NewEntities, all.NewIDs, all.MadeEntities, all.Made)
	if all.MadeEntities == 0 || all.Made == 0 {
		t.Error("no projectile coded as made by its shooter")
	}
}
