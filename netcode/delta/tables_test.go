package delta

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/sightline-game/sightline/netcode/snapshot"
)

// Encoders and decoders of one Tables, on goroutines of their own, write
// and read what codecs with tables of their own do: nothing they do writes
// the tables (run with -race).
func TestTablesShared(t *testing.T) {
	mover := codedFuzzSchema()
	mover.Predictor = moverPredictor{}
	for name, s := range map[string]*snapshot.Schema{
		"generic": seedSchema,
		"coded":   mover,
		"spawn":   spawnSchema(),
	} {
		tables := MustTables(s)
		t.Run(name, func(t *testing.T) {
			for g := range 4 {
				t.Run(fmt.Sprint(g), func(t *testing.T) {
					t.Parallel()
					rng := rand.New(rand.NewPCG(uint64(g), 31))
					c, own := CodecOf(tables), MustCodec(s)
					cur := randomWorld(rng, s, 60)
					for step := range 30 {
						next := evolve(rng, cur, 0.4)
						tick := uint32(100 + step)
						p := c.AppendDelta(nil, tick, tick-2, cur, next)
						if q := own.AppendDelta(nil, tick, tick-2, cur, next); !bytes.Equal(p, q) {
							t.Fatalf("step %d: shared tables wrote %x, own tables %x", step, p, q)
						}
						roundTrip(t, c, tick, tick-2, cur, next)
						cur = next
					}
				})
			}
		})
	}
}
