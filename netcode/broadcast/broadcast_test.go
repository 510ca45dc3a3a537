package broadcast_test

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/sightline-game/sightline/netcode/broadcast"
	"github.com/sightline-game/sightline/netcode/delta"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

var schema = snapshot.MustSchema(8, 2, 0,
	snapshot.Field{Name: "x", Bits: 16}, snapshot.Field{Name: "y", Bits: 16})

// match is a made-up match: entities that walk, one that comes and goes,
// a record per entity whose payload changes now and then, an event every
// few ticks.
type match struct {
	world *snapshot.Snapshot
}

func (m *match) at(tb testing.TB, tick uint32) *snapshot.Snapshot {
	if m.world == nil {
		m.world = snapshot.New(schema)
	}
	m.world.Reset()
	for i := range 40 {
		if i == 7 && tick/50%2 == 1 {
			continue // entity 7 leaves for 50 ticks, then comes back
		}
		x := uint32(1000 + i*10)
		if i%3 == 0 {
			x += tick * uint32(i%5+1)
		}
		gen := uint16(0)
		if i == 7 {
			gen = uint16(tick / 100 % 4)
		}
		if err := m.world.Append(snapshot.EntityID{Index: uint16(i), Generation: gen}, x%65536, uint32(2000+i)); err != nil {
			tb.Fatal(err)
		}
	}
	return m.world
}

// happen tells w what happens on tick: records and events.
func happen(w *broadcast.Writer, tick uint32) {
	if tick%4 == 0 {
		w.Event(9, fmt.Appendf(nil, "first event of tick %d", tick))
	}
	if tick%10 == 1 {
		w.Record(uint32(tick%7), 0, fmt.Appendf(nil, "score %d", tick), false)
	}
	if tick%25 == 0 {
		w.Record(uint32(tick%7), 0, nil, true)
	}
	if tick%4 == 0 {
		w.Event(uint8(tick%3+1), fmt.Appendf(nil, "event of tick %d", tick))
	}
}

// chunks collects what a Writer sends.
type chunks struct {
	headers []broadcast.Header
	bytes   [][]byte
}

func (c *chunks) Chunk(h broadcast.Header, b []byte) {
	c.headers = append(c.headers, h)
	c.bytes = append(c.bytes, b)
}

// record writes ticks 1..n of the match with fragments of frag ticks and
// no parts.
func record(t testing.TB, n uint32, frag int, sinks ...broadcast.Sink) *broadcast.Writer {
	return recordParts(t, n, frag, -1, sinks...)
}

// recordParts is record with parts of part ticks (negative: none).
func recordParts(t testing.TB, n uint32, frag, part int, sinks ...broadcast.Sink) *broadcast.Writer {
	var m match
	w := broadcast.NewWriter(broadcast.WriterConfig{
		Format: delta.MustCodec(schema), Schema: schema, FragmentTicks: frag, PartTicks: part,
		Preamble: []byte("map 42"), Sinks: sinks,
	})
	for tick := uint32(1); tick <= n; tick++ {
		happen(w, tick)
		w.Tick(tick, m.at(t, tick))
	}
	return w
}

func TestWriterChunksPlayBackTickForTick(t *testing.T) {
	var c chunks
	w := record(t, 300, 30, &c)
	w.Close()
	// key 0 (tick 1), deltas 0 (2-31), key 1 (31), deltas 1 (32-61) ...
	want := 0
	for i, h := range c.headers {
		switch {
		case i%2 == 0 && h.Kind != broadcast.KindKeyframe, i%2 == 1 && h.Kind != broadcast.KindDeltas:
			t.Fatalf("chunk %d is %v", i, h.Kind)
		case uint32(i/2) != h.Number:
			t.Fatalf("chunk %d is number %d", i, h.Number)
		}
		if h.Kind == broadcast.KindDeltas {
			want += h.Frames
		}
	}
	if want != 299 || len(c.headers) != 20 {
		t.Fatalf("%d chunks carry %d delta ticks, want 20 and 299", len(c.headers), want)
	}

	var m match
	var rec recorded
	pb := broadcast.NewPlayback(delta.MustCodec(schema), schema)
	for i, b := range c.bytes {
		if err := pb.Add(b, rec.frame(t, &m)); err != nil {
			t.Fatalf("chunk %d: %v", i, err)
		}
	}
	st := pb.Stats()
	if st.Ticks != 300 || st.Mismatched != 0 || string(pb.Preamble()) != "map 42" {
		t.Fatalf("played %+v, preamble %q", st, pb.Preamble())
	}
	// What happened on each tick came out on that tick.
	var src recorded
	for tick := uint32(1); tick <= 300; tick++ {
		src.happen(tick)
	}
	if !slices.Equal(rec.log, src.log) {
		t.Fatalf("played back %d happenings, want %d:\n%q\nwant\n%q", len(rec.log), len(src.log), rec.log[:10], src.log[:10])
	}
}

// recorded logs what a playback hands out, tick by tick, and checks each
// world against the match's.
type recorded struct{ log []string }

func (r *recorded) frame(t *testing.T, m *match) func(*broadcast.Frame, *snapshot.Snapshot) {
	return func(f *broadcast.Frame, world *snapshot.Snapshot) {
		if !world.Equal(m.at(t, f.Tick)) {
			t.Fatalf("tick %d decoded unlike the match", f.Tick)
		}
		if len(f.Records) > 0 && f.Tick == 1 || f.Tick > 1 {
			for _, rc := range f.Records {
				r.log = append(r.log, fmt.Sprintf("%d record %d %v %s", f.Tick, rc.ID, rc.Deleted, rc.Payload))
			}
		}
		for _, e := range f.Events {
			r.log = append(r.log, fmt.Sprintf("%d event %d %s", f.Tick, e.Kind, e.Body))
		}
	}
}

// happen logs what happen tells a Writer on tick.
func (r *recorded) happen(tick uint32) {
	if tick%10 == 1 {
		r.log = append(r.log, fmt.Sprintf("%d record %d false score %d", tick, tick%7, tick))
	}
	if tick%25 == 0 {
		r.log = append(r.log, fmt.Sprintf("%d record %d true ", tick, tick%7))
	}
	if tick%4 == 0 {
		r.log = append(r.log, fmt.Sprintf("%d event 9 first event of tick %d", tick, tick))
		r.log = append(r.log, fmt.Sprintf("%d event %d event of tick %d", tick, tick%3+1, tick))
	}
}

func TestKeyframeHoldsEveryLiveRecord(t *testing.T) {
	var c chunks
	record(t, 200, 30, &c)
	live := map[uint32]string{}
	for tick := uint32(1); tick <= 121; tick++ {
		if tick%10 == 1 {
			live[tick%7] = fmt.Sprintf("score %d", tick)
		}
		if tick%25 == 0 {
			delete(live, tick%7)
		}
	}
	var k broadcast.Chunk
	if err := broadcast.ParseChunk(c.bytes[8], &k); err != nil { // keyframe 4: tick 121
		t.Fatal(err)
	}
	got := map[uint32]string{}
	for _, r := range k.Frames[0].Records {
		got[r.ID] = string(r.Payload)
	}
	if k.Kind != broadcast.KindKeyframe || k.Frames[0].Tick != 121 || fmt.Sprint(got) != fmt.Sprint(live) {
		t.Fatalf("keyframe %v %d at tick %d holds %v, want %v", k.Kind, k.Number, k.Frames[0].Tick, got, live)
	}
	// A viewer that starts there decodes on to the end.
	var m match
	pb := broadcast.NewPlayback(delta.MustCodec(schema), schema)
	for i := 8; i < len(c.bytes); i++ {
		if err := pb.Add(c.bytes[i], func(f *broadcast.Frame, w *snapshot.Snapshot) {
			if !w.Equal(m.at(t, f.Tick)) {
				t.Fatalf("tick %d", f.Tick)
			}
		}); err != nil {
			t.Fatal(err)
		}
	}
	if pb.Tick() != 181 {
		t.Fatalf("ended at tick %d, want 181 (the last full fragment)", pb.Tick())
	}
}

func TestPlaybackRefusesWhatDoesNotFollow(t *testing.T) {
	var c chunks
	record(t, 100, 20, &c)
	pb := broadcast.NewPlayback(delta.MustCodec(schema), schema)
	if err := pb.Add(c.bytes[1], nil); !errors.Is(err, broadcast.ErrOutOfOrder) {
		t.Fatalf("deltas before a keyframe: %v", err)
	}
	if err := pb.Add(c.bytes[0], nil); err != nil {
		t.Fatal(err)
	}
	if err := pb.Add(c.bytes[3], nil); !errors.Is(err, broadcast.ErrOutOfOrder) || pb.Tick() != 1 {
		t.Fatalf("deltas 1 after keyframe 0: %v, at tick %d", err, pb.Tick())
	}
	if err := pb.Add(c.bytes[1], nil); err != nil || pb.Tick() != 21 {
		t.Fatalf("deltas 0: %v, at tick %d", err, pb.Tick())
	}
	// A tick whose hash differs is counted and the chunk goes on.
	bad := slices.Clone(c.bytes[3])
	var k broadcast.Chunk
	if err := broadcast.ParseChunk(bad, &k); err != nil {
		t.Fatal(err)
	}
	k.Frames[5].Hash++
	bad = broadcast.AppendChunk(nil, &k)
	if err := pb.Add(c.bytes[2], nil); err != nil {
		t.Fatal(err)
	}
	if err := pb.Add(bad, nil); !errors.Is(err, broadcast.ErrMismatch) || pb.Stats().Mismatched != 1 || pb.Tick() != 41 {
		t.Fatalf("a wrong hash: %v, %+v, at tick %d", err, pb.Stats(), pb.Tick())
	}
}

func TestReplaySeeksToTheKeyframeBefore(t *testing.T) {
	var file bytes.Buffer
	rec := broadcast.NewRecorder(&file, broadcast.ReplayHeader{Protocol: 6, TickRate: 30, FragmentTicks: 30})
	w := record(t, 250, 30, rec)
	w.Close()
	if rec.Err() != nil || rec.Bytes() != int64(file.Len()) {
		t.Fatalf("recorder: %v, %d bytes of %d", rec.Err(), rec.Bytes(), file.Len())
	}
	rp, err := broadcast.OpenReplay(file.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if rp.Header != (broadcast.ReplayHeader{Protocol: 6, TickRate: 30, FragmentTicks: 30}) || rp.FirstTick() != 1 || rp.LastTick() != 250 {
		t.Fatalf("replay %+v, ticks %d-%d", rp.Header, rp.FirstTick(), rp.LastTick())
	}
	for _, tick := range []uint32{1, 2, 31, 32, 100, 249, 250, 400} {
		i := rp.Seek(tick)
		h, _ := rp.Chunk(i)
		if h.Kind != broadcast.KindKeyframe || h.First > tick || (tick >= 31 && h.First+30 <= tick && tick <= 241) {
			t.Fatalf("seek %d: chunk %d %v at %d", tick, i, h.Kind, h.First)
		}
		var m match
		pb := broadcast.NewPlayback(delta.MustCodec(schema), schema)
		reached := false
		for j := i; j < rp.Chunks() && !reached; j++ {
			_, b := rp.Chunk(j)
			if err := pb.Add(b, func(f *broadcast.Frame, world *snapshot.Snapshot) {
				if f.Tick == tick {
					reached = world.Equal(m.at(t, tick))
				}
			}); err != nil {
				t.Fatalf("seek %d, chunk %d: %v", tick, j, err)
			}
		}
		if !reached && tick <= 250 {
			t.Fatalf("seek %d: never reached it", tick)
		}
	}
}

func TestOpenReplaySaysWhatIsWrong(t *testing.T) {
	var file bytes.Buffer
	rec := broadcast.NewRecorder(&file, broadcast.ReplayHeader{Protocol: 6, TickRate: 30, FragmentTicks: 30})
	record(t, 100, 30, rec)
	b := file.Bytes()
	for _, c := range []struct {
		name string
		b    []byte
		want string
	}{
		{"cut short", b[:len(b)-10], "cut short"},
		{"not a replay", []byte("GIF89a......"), "not a replay"},
		{"empty", AppendHeaderOnly(), "does not start with a keyframe"},
	} {
		_, err := broadcast.OpenReplay(c.b)
		if !errors.Is(err, broadcast.ErrMalformed) || !bytes.Contains([]byte(err.Error()), []byte(c.want)) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

func AppendHeaderOnly() []byte {
	return broadcast.AppendReplayHeader(nil, broadcast.ReplayHeader{Protocol: 6, TickRate: 30, FragmentTicks: 30})
}

func TestWriterTickAllocatesNothing(t *testing.T) {
	var m match
	w := broadcast.NewWriter(broadcast.WriterConfig{
		Format: delta.MustCodec(schema), Schema: schema, FragmentTicks: 1 << 20,
	})
	tick := uint32(0)
	score, hit := []byte("score 12"), []byte("a hit")
	step := func() {
		tick++
		w.Record(tick%7, 0, score, tick%25 == 0)
		w.Event(1, hit)
		w.Tick(tick, m.at(t, tick))
	}
	// The open fragment's bytes grow by doubling: once they have grown
	// (as a match's do in its first fragments), a tick allocates nothing.
	for range 2000 {
		step()
	}
	if a := testing.AllocsPerRun(100, step); a != 0 {
		t.Fatalf("%.1f allocations a tick", a)
	}
}
