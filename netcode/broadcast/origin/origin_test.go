package origin_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/sightline-game/sightline/netcode/broadcast"
	"github.com/sightline-game/sightline/netcode/broadcast/origin"
	"github.com/sightline-game/sightline/netcode/delta"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

var schema = snapshot.MustSchema(8, 2, 0,
	snapshot.Field{Name: "x", Bits: 16}, snapshot.Field{Name: "y", Bits: 16})

func world(tb testing.TB, tick uint32) *snapshot.Snapshot {
	s := snapshot.New(schema)
	for i := range 30 {
		if err := s.Append(snapshot.EntityID{Index: uint16(i)}, (tick*uint32(i%4)+uint32(i))%65536, 7); err != nil {
			tb.Fatal(err)
		}
	}
	return s
}

// clock is a clock the test moves.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func get(t *testing.T, url string) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

// fakeLive is a match written into an origin on a fake clock, served over
// HTTP: play writes ticks a 30th of a second apart, index reads the index.
type fakeLive struct {
	t    *testing.T
	clk  *clock
	o    *origin.Server
	url  string
	w    *broadcast.Writer
	tick uint32
}

// newFakeLive starts an origin with cfg (its clock the fake one) and a
// Writer into it, with fragments and parts of cfg's length.
func newFakeLive(t *testing.T, cfg origin.Config) *fakeLive {
	f := &fakeLive{t: t, clk: &clock{now: time.Unix(1000, 0)}}
	cfg.Now = f.clk.Now
	f.o = origin.New(cfg)
	srv := httptest.NewServer(f.o)
	t.Cleanup(srv.Close)
	f.url = srv.URL
	f.w = broadcast.NewWriter(broadcast.WriterConfig{Format: delta.MustCodec(schema), Schema: schema,
		FragmentTicks: cfg.FragmentTicks, PartTicks: cfg.PartTicks, Sinks: []broadcast.Sink{f.o}})
	return f
}

func (f *fakeLive) play(n int) {
	for range n {
		f.tick++
		f.w.Tick(f.tick, world(f.t, f.tick))
		f.clk.Add(time.Second / 30)
	}
}

// index reads the index, checking its cache header.
func (f *fakeLive) index() broadcast.Index {
	resp, b := get(f.t, f.url+"/index.json")
	if cc := resp.Header.Get("Cache-Control"); cc != "public, max-age=1" {
		f.t.Fatalf("index Cache-Control %q", cc)
	}
	var ix broadcast.Index
	if err := json.Unmarshal(b, &ix); err != nil {
		f.t.Fatal(err)
	}
	return ix
}

func TestOriginPublishesAfterTheDelayWithCacheHeaders(t *testing.T) {
	live := newFakeLive(t, origin.Config{Delay: 10 * time.Second, Keep: 3, TickRate: 30, FragmentTicks: 30, Protocol: 6})
	clk, o, play, index := live.clk, live.o, live.play, live.index
	play(31) // keyframe 0 and deltas 0 written, 0 s ago
	if ix := index(); ix.Ready {
		t.Fatalf("published before the delay: %+v", ix)
	}
	if st := o.Stats(); st.PublishedTick != 0 {
		t.Fatalf("stats name tick %d published before the delay", st.PublishedTick)
	}
	if resp, _ := get(t, live.url+"/0/key"); resp.StatusCode != http.StatusNotFound || resp.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("keyframe 0 before its delay: %s, Cache-Control %q", resp.Status, resp.Header.Get("Cache-Control"))
	}
	clk.Add(10 * time.Second)
	ix := index()
	if !ix.Ready || ix.Oldest != 0 || ix.Newest != 0 || ix.NewestTick != 31 || ix.DelayMillis != 10000 || ix.Protocol != 6 ||
		ix.MadeUnixMillis != clk.Now().UnixMilli() {
		t.Fatalf("after the delay: %+v", ix)
	}
	for _, p := range []string{"/0/key", "/0/delta"} {
		resp, b := get(t, live.url+p)
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" || len(b) == 0 {
			t.Fatalf("%s: %s, Cache-Control %q, %d bytes", p, resp.Status, resp.Header.Get("Cache-Control"), len(b))
		}
	}
	for _, p := range []string{"/2/key", "/01/key", "/0/deltas", "/x/key", "/0"} {
		if resp, _ := get(t, live.url+p); resp.StatusCode != http.StatusNotFound {
			t.Fatalf("%s: %s", p, resp.Status)
		}
	}
	// Past Keep fragments, the oldest are forgotten: memory stays bounded.
	play(30 * 10)
	clk.Add(11 * time.Second)
	ix = index()
	if ix.Newest != 10 || ix.Oldest != 9 {
		t.Fatalf("after 11 fragments with Keep 3: %+v", ix)
	}
	// Held: fragments 9 and 10 (keyframe, two parts, deltas each),
	// keyframe 11, and what waits for its delay: 10 s of play, two parts
	// a second, a keyframe and a fragment every second.
	if st := o.Stats(); st.Held > 4*2+1+10*4 || st.MaxServedPerChunk != 1 || st.ChunksServed != 2 || st.PublishedTick != ix.NewestTick {
		t.Fatalf("stats %+v", st)
	}
}

// A viewer follows the broadcast tick for tick, by whole fragments or,
// where the broadcast has parts, by parts.
func TestViewerFollowsTheBroadcastTickForTick(t *testing.T) {
	for _, part := range []int{-1, 3} {
		t.Run(fmt.Sprintf("parts of %d", part), func(t *testing.T) { viewerFollows(t, part) })
	}
}

func viewerFollows(t *testing.T, part int) {
	o := origin.New(origin.Config{TickRate: 30, FragmentTicks: 10, PartTicks: part})
	srv := httptest.NewServer(o)
	defer srv.Close()
	w := broadcast.NewWriter(broadcast.WriterConfig{Format: delta.MustCodec(schema), Schema: schema, FragmentTicks: 10, PartTicks: part, Sinks: []broadcast.Sink{o}})
	for tick := uint32(1); tick <= 25; tick++ { // keyframes 0-2, deltas 0-1 published
		w.Tick(tick, world(t, tick))
	}
	pb := broadcast.NewPlayback(delta.MustCodec(schema), schema)
	v := broadcast.NewViewer(broadcast.ViewerConfig{URL: srv.URL, Poll: time.Millisecond}, pb)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	frames := make(chan uint32, 1000)
	done := make(chan error, 1)
	go func() {
		done <- v.Run(ctx, func(f *broadcast.Frame, s *snapshot.Snapshot) {
			if !s.Equal(world(t, f.Tick)) {
				t.Errorf("tick %d decoded unlike the match", f.Tick)
			}
			frames <- f.Tick
		})
	}()
	// The viewer starts at the newest keyframe published (1, tick 11).
	if got := <-frames; got != 11 {
		t.Fatalf("first tick %d, want 11", got)
	}
	for tick := uint32(26); tick <= 61; tick++ {
		w.Tick(tick, world(t, tick))
	}
	o.End()
	w.Close()
	want := uint32(12)
	for want <= 61 {
		if got := <-frames; got != want {
			t.Fatalf("tick %d, want %d", got, want)
		}
		want++
	}
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	st := pb.Stats()
	if st.Mismatched != 0 || st.Ticks != 51 || (part > 0) != (st.Parts > 0) {
		t.Fatalf("playback %+v", st)
	}
	t.Logf("playback %+v", st)
}

// Parts are published as their delay passes, before their fragment; the
// index counts those of the fragment after the newest and says when the
// next is due.
func TestOriginPublishesParts(t *testing.T) {
	live := newFakeLive(t, origin.Config{Delay: 2 * time.Second, TickRate: 30, FragmentTicks: 30, PartTicks: 10})
	clk, play, index := live.clk, live.play, live.index
	play(31)                 // keyframe 0, deltas 0 (ticks 2-31) and its three parts
	clk.Add(2 * time.Second) // all published
	play(20)                 // two parts of fragment 1 (ticks 32-51), held back
	ix := index()
	if !ix.Ready || ix.Newest != 0 || ix.PartTicks != 10 || ix.Parts != 0 || ix.NextPartMillis < 1000 || ix.NextPartMillis > 2000 {
		t.Fatalf("before the parts' delay: %+v", ix)
	}
	clk.Add(1700 * time.Millisecond) // part 1/0 (written 0.37 s before the index) published, 1/1 (0.03 s) not
	ix = index()
	if ix.Parts != 1 || ix.NextPartMillis <= 0 || ix.NextPartMillis > 400 {
		t.Fatalf("one part published: %+v", ix)
	}
	resp, b := get(t, live.url+"/1/part/0")
	var c broadcast.Chunk
	if err := broadcast.ParseChunk(b, &c); resp.StatusCode != http.StatusOK || err != nil ||
		resp.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" ||
		c.Kind != broadcast.KindPart || c.Number != 1 || c.Part != 0 || c.LastPart || len(c.Frames) != 10 || c.Frames[0].Tick != 32 {
		t.Fatalf("part 1/0: %s, %v, %+v", resp.Status, err, c.Kind)
	}
	for _, p := range []string{"/1/part/1", "/1/part/00", "/1/part/", "/1/part/x", "/1/parts/0", "/0/part/3"} {
		if resp, _ := get(t, live.url+p); resp.StatusCode != http.StatusNotFound {
			t.Fatalf("%s: %s", p, resp.Status)
		}
	}
	if resp, b := get(t, live.url+"/0/part/2"); resp.StatusCode != http.StatusOK || broadcast.ParseChunk(b, &c) != nil || !c.LastPart {
		t.Fatalf("part 0/2, the last of deltas 0: %s", resp.Status)
	}
}

// A request for a chunk written and due within HoldFor waits for it and
// gets it; one due later is a 404 at once.
func TestOriginHoldsARequestForAChunkDueSoon(t *testing.T) {
	for _, c := range []struct {
		delay time.Duration
		want  int
	}{{200 * time.Millisecond, http.StatusOK}, {time.Minute, http.StatusNotFound}} {
		o := origin.New(origin.Config{Delay: c.delay, TickRate: 30, FragmentTicks: 30})
		srv := httptest.NewServer(o)
		w := broadcast.NewWriter(broadcast.WriterConfig{Format: delta.MustCodec(schema), Schema: schema, FragmentTicks: 30, Sinks: []broadcast.Sink{o}})
		w.Tick(1, world(t, 1)) // keyframe 0
		resp, b := get(t, srv.URL+"/0/key")
		var ch broadcast.Chunk
		if resp.StatusCode != c.want || (c.want == http.StatusOK && (broadcast.ParseChunk(b, &ch) != nil || ch.Kind != broadcast.KindKeyframe)) {
			t.Errorf("delay %v: keyframe 0 asked for at once: %s", c.delay, resp.Status)
		}
		if st := o.Stats(); (c.want == http.StatusNotFound) != (st.NotFound == 1) || st.Waited > 1 {
			t.Errorf("delay %v: %+v", c.delay, st)
		}
		srv.Close()
	}
}
