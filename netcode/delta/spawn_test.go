package delta

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/sightline-game/sightline/netcode/bitpack"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// driftSpawner lets entities whose field 3 is 1 make others: one made age
// ticks ago sits at field 0 = the maker's baseline field 0 plus (age+1)
// times its own field 2 (a field after 0, so known when field 0 is read),
// field 1 = the maker's field 1 plus age, with the maker's field 2 and
// field 3 = 0.
type driftSpawner struct{}

func (driftSpawner) Spawns(row []uint32) bool { return row[3] == 1 }

func (driftSpawner) Spawn(now, then []uint32, gap, age uint32, row, pred []uint32) {
	pred[0] = then[0] + (age+1)*row[2]
	pred[1] = now[1] + age
	pred[2] = now[2]
	pred[3] = 0
}

func (driftSpawner) Age(now, child []uint32) (uint32, bool) {
	d := child[1] - now[1]
	return d, d <= 20
}

// spawnSchema is codedFuzzSchema with new-entity codes and a spawner.
func spawnSchema() *snapshot.Schema {
	s := codedFuzzSchema()
	for f, lengths := range [][]uint8{
		{3, 3, 3, 3, 3, 3, 4, 4, 4, 5, 6, 7, 7},
		{3, 3, 3, 3, 3, 3, 4, 4, 4, 5, 6, 7, 7},
		{3, 2, 3, 3, 3, 3, 3},
		{1, 2, 2},
	} {
		s.Fields[f].NewCode = bitpack.MustCode(lengths...)
	}
	for f, lengths := range [][]uint8{
		{1, 3, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 12},
		{1, 3, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 12},
		{1, 3, 3, 4, 5, 6, 6},
	} {
		s.Fields[f].SpawnCode = bitpack.MustCode(lengths...)
	} // field 3 of a made entity is not written: the guess, 0
	s.Spawner = driftSpawner{}
	return s
}

// spawnWorlds returns a baseline of makers and others, and the world gap
// ticks later where the makers moved and made children as driftSpawner
// guesses them (off by offset in field 0), with strangers: as many new
// entities that no one made.
func spawnWorlds(rng *rand.Rand, s *snapshot.Schema, gap, offset uint32, strangers bool) (base, cur *snapshot.Snapshot) {
	base, cur = snapshot.New(s), snapshot.New(s)
	type kid struct {
		slot uint16
		row  []uint32
	}
	var kids []kid
	for i := range 20 {
		row := []uint32{uint32(rng.IntN(4096)), uint32(rng.IntN(3000)), uint32(rng.IntN(64)), uint32(i % 2)}
		if err := base.Append(snapshot.EntityID{Index: uint16(i)}, row...); err != nil {
			panic(err)
		}
		now := append([]uint32(nil), row...)
		now[1] += uint32(rng.IntN(5))
		if err := cur.Append(snapshot.EntityID{Index: uint16(i)}, now...); err != nil {
			panic(err)
		}
		if row[3] == 1 {
			age := uint32(rng.IntN(int(gap)))
			h := uint32(rng.IntN(64))
			x := (row[0] + (age+1)*h + offset) & 4095
			kids = append(kids, kid{uint16(40 + i), []uint32{x, now[1] + age, h, 0}})
			stranger := kid{uint16(41 + i), []uint32{uint32(rng.IntN(4096)), uint32(rng.IntN(4096)), uint32(rng.IntN(64)), 2}}
			if strangers {
				kids = append(kids, stranger)
			}
		}
	}
	for _, k := range kids {
		if err := cur.Append(snapshot.EntityID{Index: k.slot, Generation: 1}, k.row...); err != nil {
			panic(err)
		}
	}
	return base, cur
}

// New entities round-trip, coded against their makers' guesses where that
// is shorter, which takes far fewer bits than against the entity before
// them; a maker's guess a little off still pays.
func TestSpawnedEntities(t *testing.T) {
	noMaker := spawnSchema()
	noMaker.Spawner = nil
	for _, tc := range []struct {
		name   string
		gap    uint32
		offset uint32
		atMost float64 // bits of the delta with the spawner over those without
		all    bool    // every new entity is coded as made
	}{
		{"exact guesses", 4, 0, 0.6, true},
		{"guesses 3 off", 6, 3, 0.75, false},
		{"gap 1", 1, 0, 0.6, true},
		{"old spawns", 30, 0, 0.8, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(tc.gap), uint64(tc.offset)))
			s := spawnSchema()
			base, cur := spawnWorlds(rng, s, tc.gap, tc.offset, false)
			c := MustCodec(s)
			tick := 100 + tc.gap
			p := c.AppendDelta(nil, tick, 100, base, cur)
			out := snapshot.New(s)
			h, err := c.ReadHeader(p, tick)
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Decode(p, h, base, out); err != nil || !out.Equal(cur) {
				t.Fatalf("decode: %v, equal %v", err, out.Equal(cur))
			}
			sizes := c.LastSizes()
			alone := MustCodec(noMaker)
			alone.AppendDelta(nil, tick, 100, base, cur)
			t.Logf("new entities: %d bits with makers, %d without", sizes.New, alone.LastSizes().New)
			if float64(sizes.New) > tc.atMost*float64(alone.LastSizes().New) {
				t.Errorf("new entities: %d bits with makers, %d without: want at most %.0f %%", sizes.New, alone.LastSizes().New, 100*tc.atMost)
			}
			// Where the new entities' bits went: ids, then rows, the made
			// ones among them.
			kids := cur.Len() - base.Len()
			if sizes.NewEntities != kids || sizes.MadeEntities == 0 || sizes.MadeEntities > kids ||
				tc.all && sizes.MadeEntities != kids {
				t.Errorf("%d new entities, %d made, want %d new (all made: %v)", sizes.NewEntities, sizes.MadeEntities, kids, tc.all)
			}
			if sizes.NewIDs <= 0 || sizes.Made <= 0 || sizes.NewIDs+sizes.Made > sizes.New {
				t.Errorf("new entities %d bits: ids %d, made rows %d", sizes.New, sizes.NewIDs, sizes.Made)
			}
			if a := alone.LastSizes(); a.MadeEntities != 0 || a.Made != 0 || a.NewIDs <= 0 {
				t.Errorf("without a spawner: %d made in %d bits, ids %d bits", a.MadeEntities, a.Made, a.NewIDs)
			}
		})
	}
}

// Random worlds round-trip with new-entity codes, with and without a
// spawner, and a delta damaged anywhere is refused or decodes to a state
// that re-encodes to itself, without a panic.
func TestSpawnRoundTripsAndDamage(t *testing.T) {
	noMaker := spawnSchema()
	noMaker.Spawner = nil
	for _, s := range []*snapshot.Schema{spawnSchema(), noMaker} {
		rng := rand.New(rand.NewPCG(7, 8))
		c := MustCodec(s)
		out, again := snapshot.New(s), snapshot.New(s)
		for i := range 40 {
			base := randomWorld(rng, s, 60)
			for r := range base.Len() {
				if r%3 == 0 {
					base.Row(r)[3] = 1 // some makers
				}
			}
			cur := evolve(rng, base, 0.4)
			gap := uint32(1 + i%8)
			p := c.AppendDelta(nil, 500+gap, 500, base, cur)
			sameWithChanges(t, c, 500+gap, 500, base, cur, p)
			h, err := c.ReadHeader(p, 500+gap)
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Decode(p, h, base, out); err != nil || !out.Equal(cur) {
				t.Fatalf("world %d: %v, equal %v", i, err, out.Equal(cur))
			}
			for b := 0; b < 8*len(p); b += 7 {
				q := append([]byte(nil), p...)
				q[b/8] ^= 1 << (b % 8)
				q[len(q)-1] = Check(q[:len(q)-1]) // past the check byte: into the parser
				h, err := c.ReadHeader(q, 500+gap)
				if err != nil || c.Decode(q, h, base, out) != nil {
					continue
				}
				r := c.AppendDelta(nil, h.Tick, h.Baseline, base, out)
				if err := c.Decode(r, h, base, again); err != nil || !again.Equal(out) {
					t.Fatalf("world %d, bit %d: re-encoded: %v", i, b, err)
				}
			}
		}
	}
}

// A maker beyond the packet's makers, or a spawn older than the format
// names, is malformed; the same packet naming a maker it has decodes.
func TestSpawnHostileMaker(t *testing.T) {
	s := spawnSchema()
	c := MustCodec(s)
	base, cur := snapshot.New(s), snapshot.New(s)
	for _, snap := range []*snapshot.Snapshot{base, cur} {
		for slot := range uint16(3) { // three makers: a maker index of 2 bits
			if err := snap.Append(snapshot.EntityID{Index: slot}, 100, 100, 5, 1); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := cur.Append(snapshot.EntityID{Index: 9}, 100+3*7, 103, 7, 0); err != nil {
		t.Fatal(err)
	}
	p := c.AppendDelta(nil, 104, 100, base, cur)
	head := c.sections.newRows // the new entity's row begins where the changes end
	fields := func(w *bitpack.Writer) {
		for f := len(s.Fields) - 2; f >= 0; f-- { // field 3 is not written
			w.WriteLengthCode(s.Fields[f].SpawnCode, 0)
		}
	}
	for _, tc := range []struct {
		name  string
		maker uint32
		age   uint32
		err   error
	}{
		{"maker 2 of 3", 2, 3, nil},
		{"maker 3 of 3", 3, 3, ErrMalformed},
		{"age 255", 0, 255, nil},
		{"age 256", 0, 256, ErrMalformed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := bitpack.NewReader(p)
			w := bitpack.NewWriter(nil)
			for n := head; n > 0; n -= min(n, 16) {
				w.Write(r.Read(uint(min(n, 16))), uint(min(n, 16)))
			}
			w.WriteBool(true)
			w.Write(tc.maker, 2)
			w.WriteGamma(tc.age, spawnAgeOrder)
			fields(&w)
			q := w.Bytes()
			q = append(q, Check(q))
			h, err := c.ReadHeader(q, 104)
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Decode(q, h, base, snapshot.New(s)); !errors.Is(err, tc.err) {
				t.Fatalf("err %v, want %v", err, tc.err)
			}
		})
	}
}

// Coding new entities against their makers allocates nothing once the
// codec has met the views.
func TestSpawnAllocatesNothing(t *testing.T) {
	s := spawnSchema()
	rng := rand.New(rand.NewPCG(9, 10))
	base, cur := spawnWorlds(rng, s, 5, 1, true)
	c := MustCodec(s)
	out := snapshot.New(s)
	buf := c.AppendDelta(nil, 105, 100, base, cur)
	h, _ := c.ReadHeader(buf, 105)
	if err := c.Decode(buf, h, base, out); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(50, func() {
		buf = c.AppendDelta(buf[:0], 105, 100, base, cur)
		if err := c.Decode(buf, h, base, out); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Fatalf("%v allocations a delta", n)
	}
}

func FuzzDecodeDeltaSpawn(f *testing.F) {
	s := spawnSchema()
	c := MustCodec(s)
	rng := rand.New(rand.NewPCG(11, 12))
	base, _ := spawnWorlds(rng, s, 6, 0, true)
	const newest = 506
	for i := range 4 {
		_, cur := spawnWorlds(rand.New(rand.NewPCG(11, 12)), s, 6, uint32(i), i%2 == 0)
		f.Add(c.AppendDelta(nil, newest, 500, base, cur))
	}
	fuzzRoundTrip(f, c, base, newest)
}
