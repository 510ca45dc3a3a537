package protocol_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/sightline-game/sightline/internal/figures"
	"github.com/sightline-game/sightline/internal/figures/figuretest"

	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/bitpack"
	"github.com/sightline-game/sightline/netcode/delta"
	"github.com/sightline-game/sightline/netcode/delta/train"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// model is a distribution of one kind of symbol (the masks of a context,
// or the residual lengths of a field in a context) for an arithmetic
// coder: counts, their total, and the counts a packet starts from.
type model struct {
	prior, counts []float64
	total, start  float64
}

// newModel returns a model whose prior is trained (with half a count for
// every symbol, so none is impossible), scaled to weight counts in all.
func newModel(trained []uint64, weight float64) *model {
	m := &model{prior: make([]float64, len(trained)), counts: make([]float64, len(trained))}
	sum := 0.0
	for _, c := range trained {
		sum += float64(c) + 0.5
	}
	for i, c := range trained {
		m.prior[i] = weight * (float64(c) + 0.5) / sum
	}
	m.start = weight
	m.reset()
	return m
}

func (m *model) reset() {
	copy(m.counts, m.prior)
	m.total = m.start
}

// code returns the bits an ideal arithmetic coder spends on v, and adapts
// to it if adapt.
func (m *model) code(v int, adapt bool) float64 {
	bits := -math.Log2(m.counts[v] / m.total)
	if adapt {
		m.counts[v]++
		m.total++
	}
	return bits
}

// The game's changes are written with prefix codes trained on bot matches
// (the Quake III way). Against them, on the views of matches of another
// seed: an arithmetic coder with the same training (static), and one
// that also adapts to each packet's own symbols, starting each packet
// from the training (packets are lost, so no state may cross them). Both
// are ideal: no coder spends less than this on those models. The raw low
// bits of the residuals cost the same in all three and are left out.
//
// The best of them saves less than a byte a delta, which is about what a
// byte-wise range coder spends ending its stream (it flushes one to five
// bytes of its low register), and a coder per symbol costs time: the
// prefix codes stay. Should the traffic change so that it saves a byte or
// more, the test fails: then an arithmetic coder is worth building and
// measuring in the codec.
func TestPrefixCodesAgainstArithmeticCoding(t *testing.T) {
	s := protocol.Schema()
	trained := arenaTally(t, s, []uint64{11}, 3000, nil)
	k := trained.Contexts()
	codeOf := func(ctx, f int) *bitpack.Code {
		c := s.Contexts[ctx]
		switch {
		case f < 0 && c.Mask != nil:
			return c.Mask
		case f < 0:
			return s.MaskCode
		case c.Fields != nil && c.Fields[f] != nil:
			return c.Fields[f]
		}
		return s.Fields[f].Code
	}
	weights := []float64{8, 32, 128, 512}
	// models[w][ctx][f+1]: f -1 is the mask.
	models := make([][][]*model, len(weights))
	for w, weight := range weights {
		models[w] = make([][]*model, k)
		for ctx := range k {
			models[w][ctx] = make([]*model, len(s.Fields)+1)
			models[w][ctx][0] = newModel(trained.ContextMaskCounts(ctx), weight)
			for f := range s.Fields {
				models[w][ctx][f+1] = newModel(trained.ContextCounts(ctx, f), weight)
			}
		}
	}
	var packets, symbols int
	var prefix, static float64
	adaptive := make([]float64, len(weights))
	tl, err := train.NewTally(s)
	if err != nil {
		t.Fatal(err)
	}
	arenaViews(t, s, []uint64{21}, 2000, func(base, cur *snapshot.Snapshot, gap uint32) {
		packets++
		for w := range models {
			for _, ms := range models[w] {
				for _, m := range ms {
					m.reset()
				}
			}
		}
		tl.Symbols(base, cur, gap, func(y delta.Symbol) {
			symbols++
			prefix += float64(codeOf(y.Context, y.Field).Len(y.Value))
			static += models[0][y.Context][y.Field+1].code(y.Value, false)
			for w := range models {
				adaptive[w] += models[w][y.Context][y.Field+1].code(y.Value, true)
			}
		})
	})
	per := func(b float64) float64 { return b / float64(packets) }
	t.Logf("%d deltas, %.1f symbols each: prefix codes %.1f bits a delta, static arithmetic %.1f", packets, float64(symbols)/float64(packets), per(prefix), per(static))
	best := static
	for w, weight := range weights {
		t.Logf("adaptive arithmetic, the training worth %.0f symbols: %.1f bits a delta", weight, per(adaptive[w]))
		best = min(best, adaptive[w])
	}
	saving := per(prefix - best)
	t.Logf("the best saves %.1f bits a delta (%.1f%% of the coded symbols' bits)", saving, 100*(prefix-best)/prefix)
	lo, hi := adaptive[0], adaptive[0]
	for _, a := range adaptive {
		lo, hi = min(lo, a), max(hi, a)
	}
	figuretest.Hold(t, "prefix-codes", fmt.Sprintf("over %s deltas, %.1f masks and residual lengths each, the prefix codes spend %.1f bits a delta, an arithmetic coder with the same training %.1f, and one that also adapts to each packet's symbols %.1f to %.1f: at most %.1f bits a delta less",
		figures.Thousands(packets), float64(symbols)/float64(packets), per(prefix), per(static), per(lo), per(hi), saving))
	if saving >= 8 {
		t.Errorf("an arithmetic coder would save %.1f bits a delta, a byte or more: build one in the codec and measure it", saving)
	}
	if per(prefix) < 10 {
		t.Fatalf("%.1f bits of codewords a delta: the traffic is too thin to compare coders on", per(prefix))
	}
}
