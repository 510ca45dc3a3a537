package origin_test

import (
	"context"
	"encoding/json"
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

func TestOriginPublishesAfterTheDelayWithCacheHeaders(t *testing.T) {
	clk := &clock{now: time.Unix(1000, 0)}
	o := origin.New(origin.Config{Delay: 10 * time.Second, Keep: 3, TickRate: 30, FragmentTicks: 30, Protocol: 6, Now: clk.Now})
	srv := httptest.NewServer(o)
	defer srv.Close()
	w := broadcast.NewWriter(broadcast.WriterConfig{Format: delta.MustCodec(schema), Schema: schema, FragmentTicks: 30, Sinks: []broadcast.Sink{o}})
	tick := uint32(0)
	play := func(n int) {
		for range n {
			tick++
			w.Tick(tick, world(t, tick))
			clk.Add(time.Second / 30)
		}
	}
	index := func() broadcast.Index {
		resp, b := get(t, srv.URL+"/index.json")
		if cc := resp.Header.Get("Cache-Control"); cc != "public, max-age=1" {
			t.Fatalf("index Cache-Control %q", cc)
		}
		var ix broadcast.Index
		if err := json.Unmarshal(b, &ix); err != nil {
			t.Fatal(err)
		}
		return ix
	}
	play(31) // keyframe 0 and deltas 0 written, 0 s ago
	if ix := index(); ix.Ready {
		t.Fatalf("published before the delay: %+v", ix)
	}
	if st := o.Stats(); st.PublishedTick != 0 {
		t.Fatalf("stats name tick %d published before the delay", st.PublishedTick)
	}
	if resp, _ := get(t, srv.URL+"/0/key"); resp.StatusCode != http.StatusNotFound || resp.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("keyframe 0 before its delay: %s, Cache-Control %q", resp.Status, resp.Header.Get("Cache-Control"))
	}
	clk.Add(10 * time.Second)
	ix := index()
	if !ix.Ready || ix.Oldest != 0 || ix.Newest != 0 || ix.NewestTick != 31 || ix.DelayMillis != 10000 || ix.Protocol != 6 ||
		ix.MadeUnixMillis != clk.Now().UnixMilli() {
		t.Fatalf("after the delay: %+v", ix)
	}
	for _, p := range []string{"/0/key", "/0/delta"} {
		resp, b := get(t, srv.URL+p)
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" || len(b) == 0 {
			t.Fatalf("%s: %s, Cache-Control %q, %d bytes", p, resp.Status, resp.Header.Get("Cache-Control"), len(b))
		}
	}
	for _, p := range []string{"/2/key", "/01/key", "/0/deltas", "/x/key", "/0"} {
		if resp, _ := get(t, srv.URL+p); resp.StatusCode != http.StatusNotFound {
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
	if st := o.Stats(); st.Held > 2*3+2 || st.MaxServedPerChunk != 1 || st.ChunksServed != 2 || st.PublishedTick != ix.NewestTick {
		t.Fatalf("stats %+v", st)
	}
}

func TestViewerFollowsTheBroadcastTickForTick(t *testing.T) {
	o := origin.New(origin.Config{TickRate: 30, FragmentTicks: 10})
	srv := httptest.NewServer(o)
	defer srv.Close()
	w := broadcast.NewWriter(broadcast.WriterConfig{Format: delta.MustCodec(schema), Schema: schema, FragmentTicks: 10, Sinks: []broadcast.Sink{o}})
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
	if st := pb.Stats(); st.Mismatched != 0 || st.Ticks != 51 {
		t.Fatalf("playback %+v", st)
	}
}
