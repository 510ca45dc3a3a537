package snapshot

import (
	"errors"
	"testing"
)

var testSchema = MustSchema(4, 2, 8, Field{Name: "x", Bits: 4}, Field{Name: "flag", Bits: 1})

func TestAppendValidates(t *testing.T) {
	cases := []struct {
		name string
		id   EntityID
		vals []uint32
		want error
	}{
		{"ok", EntityID{Index: 3}, []uint32{15, 1}, nil},
		{"slot not increasing", EntityID{Index: 3}, []uint32{1, 1}, ErrOrder},
		{"value too wide", EntityID{Index: 4}, []uint32{16, 0}, ErrRange},
		{"too few values", EntityID{Index: 4}, []uint32{1}, ErrRange},
		{"slot beyond index bits", EntityID{Index: 16}, []uint32{1, 0}, ErrRange},
		{"generation beyond its bits", EntityID{Index: 5, Generation: 4}, []uint32{1, 0}, ErrRange},
		{"ok later slot", EntityID{Index: 9, Generation: 3}, []uint32{0, 0}, nil},
	}
	s := New(testSchema)
	for _, c := range cases {
		if err := s.Append(c.id, c.vals...); !errors.Is(err, c.want) {
			t.Errorf("%s: err %v, want %v", c.name, err, c.want)
		}
	}
	if s.Len() != 2 || s.ID(1) != (EntityID{Index: 9, Generation: 3}) || s.Value(0, 0) != 15 {
		t.Fatalf("snapshot holds %d entities: %v", s.Len(), s.IDs())
	}
	for i := 10; i < 16; i++ {
		s.Append(EntityID{Index: uint16(i)}, 0, 0)
	}
	if !s.Full() {
		t.Fatal("8 entities should fill MaxEntities 8")
	}
	if err := s.Append(EntityID{Index: 15}, 0, 0); !errors.Is(err, ErrFull) {
		t.Fatalf("append to a full snapshot: %v", err)
	}
}

func TestFindCopyEqualDiff(t *testing.T) {
	a := New(testSchema)
	a.Append(EntityID{Index: 1}, 1, 0)
	a.Append(EntityID{Index: 4}, 4, 1)
	a.Append(EntityID{Index: 7}, 7, 0)
	if i, ok := a.Find(4); !ok || i != 1 {
		t.Fatalf("Find(4) = %d %v", i, ok)
	}
	if _, ok := a.Find(5); ok {
		t.Fatal("Find(5) found a missing slot")
	}
	b := New(testSchema)
	b.CopyFrom(a)
	if !b.Equal(a) || b.Diff(a) != 0 {
		t.Fatal("a copy must be equal")
	}
	b.Row(0)[0] = 2 // changed
	if b.Equal(a) || a.Value(0, 0) != 1 {
		t.Fatal("a copy must not alias its source")
	}
	c := New(testSchema)
	c.Append(EntityID{Index: 1}, 2, 0)                // changed value
	c.Append(EntityID{Index: 4, Generation: 1}, 4, 1) // same slot, new generation
	c.Append(EntityID{Index: 9}, 0, 0)                // 7 removed, 9 added
	if d := c.Diff(a); d != 4 {
		t.Fatalf("Diff = %d, want 4 (changed, regenerated, removed, added)", d)
	}
	c.Reset()
	if c.Len() != 0 || !c.Equal(New(testSchema)) {
		t.Fatal("Reset must empty the snapshot")
	}
}

func TestSchemaValidate(t *testing.T) {
	bad := []struct {
		index, gen uint8
		max        int
		fields     []Field
	}{
		{0, 0, 0, []Field{{Name: "a", Bits: 1}}},
		{17, 0, 0, []Field{{Name: "a", Bits: 1}}},
		{4, 17, 0, []Field{{Name: "a", Bits: 1}}},
		{4, 0, 17, []Field{{Name: "a", Bits: 1}}},
		{4, 0, 0, nil},
		{4, 0, 0, []Field{{Name: "a", Bits: 0}}},
		{4, 0, 0, []Field{{Name: "a", Bits: 33}}},
	}
	for _, b := range bad {
		if _, err := NewSchema(b.index, b.gen, b.max, b.fields...); !errors.Is(err, ErrSchema) {
			t.Errorf("NewSchema(%d, %d, %d, %v) = %v, want ErrSchema", b.index, b.gen, b.max, b.fields, err)
		}
	}
	s := MustSchema(10, 4, 0, Field{Name: "x", Bits: 16}, Field{Name: "y", Bits: 16}, Field{Name: "h", Bits: 10})
	if s.MaxEntities != 1024 || s.EntityBits() != 42 || s.MaxGeneration() != 15 || s.Fields[2].Max() != 1023 {
		t.Fatalf("schema %+v", s)
	}
}

func TestHash(t *testing.T) {
	a := New(testSchema)
	a.Append(EntityID{Index: 1}, 1, 0)
	a.Append(EntityID{Index: 4}, 4, 1)
	b := New(testSchema)
	b.CopyFrom(a)
	if a.Hash() != b.Hash() {
		t.Fatal("equal snapshots must hash alike")
	}
	seen := map[uint32]string{a.Hash(): "original"}
	b.Row(1)[0] = 5
	c := New(testSchema)
	c.Append(EntityID{Index: 1}, 1, 0)
	c.Append(EntityID{Index: 4, Generation: 1}, 4, 1)
	for name, s := range map[string]*Snapshot{"value": b, "generation": c, "empty": New(testSchema)} {
		if prev, dup := seen[s.Hash()]; dup {
			t.Fatalf("%s change hashes like %s", name, prev)
		}
		seen[s.Hash()] = name
	}
	if n := testing.AllocsPerRun(10, func() { a.Hash() }); n != 0 {
		t.Fatalf("Hash allocates %v", n)
	}
}

// Grow makes room for the entities it is asked for, up to MaxEntities, and
// appending them then allocates nothing.
func TestGrow(t *testing.T) {
	s := New(MustSchema(10, 4, 0, Field{Name: "x", Bits: 16}, Field{Name: "y", Bits: 16}))
	s.Append(EntityID{Index: 0}, 1, 2)
	s.Grow(300)
	if cap(s.ids) < 301 || cap(s.values) < 602 {
		t.Fatalf("after Grow(300) with 1 held: room for %d ids and %d values", cap(s.ids), cap(s.values))
	}
	allocs := testing.AllocsPerRun(10, func() {
		s.Reset()
		for i := range 301 {
			s.AppendUnchecked(EntityID{Index: uint16(i)})
		}
	})
	if allocs != 0 {
		t.Fatalf("appending what Grow made room for allocated %v times", allocs)
	}
	small := New(testSchema) // MaxEntities 8
	small.Grow(1000)
	if cap(small.ids) > 64 || cap(small.values) > 64*2 {
		t.Fatalf("Grow beyond MaxEntities 8: room for %d ids", cap(small.ids))
	}
	small.Grow(-5) // nothing to do
}

// Extend adds entities for the caller to write after those already held,
// as Append would have them, growing the storage only beyond what it held.
func TestExtend(t *testing.T) {
	s := New(testSchema)
	want := New(testSchema)
	for round := range 3 {
		s.Reset()
		want.Reset()
		if err := s.Append(EntityID{Index: 1}, 3, 1); err != nil {
			t.Fatal(err)
		}
		ids, vals := s.Extend(3)
		if len(ids) != 3 || len(vals) != 6 || s.Len() != 4 {
			t.Fatalf("round %d: Extend(3) gave %d ids and %d values, snapshot of %d", round, len(ids), len(vals), s.Len())
		}
		for k := range ids {
			ids[k] = EntityID{Index: uint16(4 + k), Generation: uint16(k)}
			vals[2*k], vals[2*k+1] = uint32(k+round), uint32(k%2)
		}
		want.Append(EntityID{Index: 1}, 3, 1)
		for k := range 3 {
			want.Append(EntityID{Index: uint16(4 + k), Generation: uint16(k)}, uint32(k+round), uint32(k%2))
		}
		if !s.Equal(want) {
			t.Fatalf("round %d: extended %v, appended %v", round, s.IDs(), want.IDs())
		}
		if ids, vals := s.Extend(0); len(ids) != 0 || len(vals) != 0 || s.Len() != 4 {
			t.Fatalf("round %d: Extend(0) changed the snapshot", round)
		}
	}
	if n := testing.AllocsPerRun(50, func() {
		s.Reset()
		s.Extend(4)
	}); n != 0 {
		t.Fatalf("Extend within the storage held allocates %v times", n)
	}
}
