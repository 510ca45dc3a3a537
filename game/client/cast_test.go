package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/internal/matchrec"
	"github.com/sightline-game/sightline/netcode/broadcast"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// The recorded match: four bots for 20 s, the first leaving at 10 s.
const (
	castTicks   = 20 * matchrec.TickRate
	castLeaveAt = 10 * matchrec.TickRate
)

var (
	castOnce sync.Once
	castFile []byte
	castErr  error
)

// castReplay returns a fresh copy of the recorded match's replay file
// (recorded once for all the tests).
func castReplay(t *testing.T) *broadcast.Replay {
	t.Helper()
	castOnce.Do(func() {
		castFile, castErr = matchrec.Record(matchrec.Config{Players: 4, Ticks: castTicks, LeaveAt: castLeaveAt, FragmentTicks: 30})
	})
	if castErr != nil {
		t.Fatal(castErr)
	}
	rp, err := broadcast.OpenReplay(append([]byte(nil), castFile...))
	if err != nil {
		t.Fatal(err)
	}
	return rp
}

// fakeClock is the real time as a test moves it.
type fakeClock struct{ t time.Time }

func (f *fakeClock) now() time.Time { return f.t }

// watcher is a spectator's client on a Cast, on a fake clock.
type watcher struct {
	t     *testing.T
	clock *fakeClock
	cast  *client.Cast
	cl    *client.Client
}

func newWatcher(t *testing.T, cfg client.CastConfig) *watcher {
	t.Helper()
	clock := &fakeClock{t: time.Unix(1_800_000_000, 0)}
	if cfg.Clock == nil {
		cfg.Clock = clock.now
	}
	cast, err := client.NewCast(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &watcher{t: t, clock: clock, cast: cast, cl: client.New(cast, client.Config{Verify: true, Watch: true, Name: "viewer"})}
}

// play moves the real clock by d in steps of a 60 Hz game's frames,
// polling and acknowledging at each.
func (w *watcher) play(d time.Duration) {
	const frame = time.Second / 60
	for left := d; left > 0; left -= frame {
		w.clock.t = w.clock.t.Add(min(frame, left))
		w.cl.Poll()
		w.cl.SendAck()
	}
}

// playTo plays until the Cast delivered tick (or gives up after ten
// minutes of the replay).
func (w *watcher) playTo(tick uint32) {
	w.t.Helper()
	for range 36000 {
		if w.cast.Tick() >= tick {
			return
		}
		w.play(time.Second / 60)
	}
	w.t.Fatalf("the cast never reached tick %d (at %d)", tick, w.cast.Tick())
}

// matchAt is what the replay says of its match after tick: seats and scores
// by player.
type matchAt struct {
	seats  map[uint32]uint16
	scores map[uint32]uint32
}

func replayAt(t *testing.T, rp *broadcast.Replay, tick uint32) matchAt {
	t.Helper()
	m := matchAt{seats: map[uint32]uint16{}, scores: map[uint32]uint32{}}
	pb := broadcast.NewPlayback(protocol.Session().Format(protocol.Schema()), protocol.Schema())
	for i := range rp.Chunks() {
		h, b := rp.Chunk(i)
		if h.First > tick {
			break
		}
		err := pb.Add(b, func(f *broadcast.Frame, _ *snapshot.Snapshot) {
			if f.Tick > tick {
				return
			}
			for _, r := range f.Records {
				kind, p := protocol.RecordKind(r.ID)
				switch {
				case kind == protocol.RecordSeat && r.Deleted:
					delete(m.seats, p)
				case kind == protocol.RecordSeat:
					slot, err := protocol.ParseSeat(r.Payload)
					if err != nil {
						t.Fatal(err)
					}
					m.seats[p] = slot
				case kind == protocol.RecordScore && r.Deleted:
					delete(m.scores, p)
				case kind == protocol.RecordScore:
					s, err := protocol.ParseScore(r.Payload)
					if err != nil {
						t.Fatal(err)
					}
					m.scores[p] = s.Score
				}
			}
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// leader is the player with the highest score, the lowest id among equals.
func (m matchAt) leader() uint32 {
	best := uint32(0)
	for p := range m.seats {
		if best == 0 || m.scores[p] > m.scores[best] || m.scores[p] == m.scores[best] && p < best {
			best = p
		}
	}
	return best
}

// A spectator's unchanged client plays a whole recorded match through a
// Cast as it would watch it live: welcomed as a spectator on the match's
// map, it decodes every tick with no mismatch (its own count and the
// Cast's), holds the match's records (a score for each player still in
// it, no seat records), and the Cast follows the leader, whose entity
// its views hold.
func TestCastPlaysAWholeReplay(t *testing.T) {
	rp := castReplay(t)
	w := newWatcher(t, client.CastConfig{Replay: rp})
	first, last := w.cast.Span()
	if first != rp.FirstTick() || last != rp.LastTick() || last-first < castTicks-30 {
		t.Fatalf("span %d-%d, the replay's %d-%d for a match of %d ticks", first, last, rp.FirstTick(), rp.LastTick(), castTicks)
	}
	w.play(time.Second / 60)
	start := replayAt(t, rp, first)
	if wt, ok := w.cl.Watching(); !ok || wt.Player == 0 || wt.Player != start.leader() || wt.Slot != start.seats[wt.Player] {
		t.Errorf("first told %+v (%v); want the leader, player %d at slot %d", wt, ok, start.leader(), start.seats[start.leader()])
	}
	w.playTo(last)
	w.play(time.Second)
	if !w.cast.Ended() {
		t.Error("the cast did not end after its last tick")
	}
	if err := w.cast.Err(); err != nil {
		t.Fatal(err)
	}
	ticks := uint64(last - first + 1)
	st := w.cl.Stats()
	if st.Mismatched != 0 || st.Verified != ticks || st.Matched != ticks {
		t.Errorf("the client verified %d ticks, %d matched, %d mismatched; want all %d matched", st.Verified, st.Matched, st.Mismatched, ticks)
	}
	if ps := w.cast.PlayStats(); ps.Mismatched != 0 || ps.Ticks != ticks || ps.Delivered != ticks {
		t.Errorf("the cast decoded %d ticks, %d mismatched, delivered %d; want %d, 0, %d", ps.Ticks, ps.Mismatched, ps.Delivered, ticks, ticks)
	}
	if newest, _ := w.cl.Newest(); newest != last {
		t.Errorf("the client's newest tick is %d, want the replay's last, %d", newest, last)
	}
	if !w.cl.Spectating() || w.cl.MapSeed() != 5 {
		p, _ := w.cl.Player()
		t.Errorf("welcomed as player %d on map %d: want a spectator on map 5", p, w.cl.MapSeed())
	}
	end := replayAt(t, rp, last)
	scores, seats := 0, 0
	w.cl.Records(func(id uint32, _ uint16, payload []byte) {
		switch kind, p := protocol.RecordKind(id); kind {
		case protocol.RecordScore:
			s, err := protocol.ParseScore(payload)
			if err != nil || s.Score != end.scores[p] {
				t.Errorf("player %d's score record says %d (%v), the replay %d", p, s.Score, err, end.scores[p])
			}
			scores++
		case protocol.RecordSeat:
			seats++
		}
	})
	if scores != 3 || seats != 0 {
		t.Errorf("the client holds %d score records and %d seat records; want 3 (the players left) and none", scores, seats)
	}
	// It follows the leader of when it started, the player who joined
	// first, until that one leaves; then the leader of then, as a server
	// does: a player still in the match, at its seat.
	wt, ok := w.cl.Watching()
	if slot, in := end.seats[wt.Player]; !ok || wt.Mode != protocol.WatchFollow || !in || wt.Slot != slot {
		t.Errorf("watching %+v (%v); want a player in the match at its seat (seats %v)", wt, ok, end.seats)
	}
	if !hasSlot(w.cl, wt.Slot) {
		t.Errorf("the newest view lacks the followed player's entity (slot %d)", wt.Slot)
	}
}

func hasSlot(c *client.Client, slot uint16) bool {
	_, s := c.Newest()
	if s == nil {
		return false
	}
	_, ok := s.Find(slot)
	return ok
}

// The Cast answers a spectator as a server does: the player it asks for,
// at that player's seat; the leader when it asks for player 0 or when the
// player it follows leaves; a free camera where it asks, within the world.
func TestCastAnswersWhomToWatch(t *testing.T) {
	rp := castReplay(t)
	w := newWatcher(t, client.CastConfig{Replay: rp})
	first, _ := w.cast.Span()
	w.playTo(first + 60)
	at := replayAt(t, rp, w.cast.Tick())
	if len(at.seats) != 4 {
		t.Fatalf("%d seats at tick %d, want the 4 players'", len(at.seats), w.cast.Tick())
	}
	// The first to join leaves at castLeaveAt: follow it.
	var leaving uint32
	for p := range at.seats {
		if leaving == 0 || p < leaving {
			leaving = p
		}
	}
	if err := w.cl.Follow(leaving); err != nil {
		t.Fatal(err)
	}
	w.play(time.Second / 60)
	at = replayAt(t, rp, w.cast.Tick())
	if wt, _ := w.cl.Watching(); wt.Mode != protocol.WatchFollow || wt.Player != leaving || wt.Slot != at.seats[leaving] {
		t.Fatalf("after Follow(%d): watching %+v; want slot %d", leaving, wt, at.seats[leaving])
	}

	w.playTo(first + castLeaveAt + 30)
	at = replayAt(t, rp, w.cast.Tick())
	if _, in := at.seats[leaving]; in {
		t.Fatalf("player %d still seated at tick %d", leaving, w.cast.Tick())
	}
	wt, _ := w.cl.Watching()
	if want := at.leader(); wt.Player != want || wt.Slot != at.seats[want] {
		t.Fatalf("the followed player %d left: watching %+v; want the leader %d at slot %d", leaving, wt, want, at.seats[want])
	}

	// Another player by name, then the leader again by 0.
	var other uint32
	for p := range at.seats {
		if p != at.leader() {
			other = p
		}
	}
	w.cl.Follow(other)
	w.play(time.Second / 60)
	at = replayAt(t, rp, w.cast.Tick())
	if wt, _ := w.cl.Watching(); wt.Player != other || wt.Slot != at.seats[other] {
		t.Fatalf("after Follow(%d): watching %+v; want slot %d", other, wt, at.seats[other])
	}
	w.cl.Follow(0)
	w.play(time.Second / 60)
	at = replayAt(t, rp, w.cast.Tick())
	if wt, _ := w.cl.Watching(); wt.Player != at.leader() || wt.Slot != at.seats[at.leader()] {
		t.Fatalf("after Follow(0): watching %+v; want the leader %d", wt, at.leader())
	}

	w.cl.FlyTo(protocol.WorldSize/4, 2*protocol.WorldSize)
	w.play(time.Second / 60)
	limit := protocol.PosQuant.Quantize(protocol.WorldSize)
	if wt, _ := w.cl.Watching(); wt.Mode != protocol.WatchFree || wt.X != protocol.PosQuant.Quantize(protocol.WorldSize/4) || wt.Y != limit {
		t.Fatalf("after FlyTo: watching %+v; want a free camera at (%d, %d)", wt, protocol.PosQuant.Quantize(protocol.WorldSize/4), limit)
	}
	if st := w.cl.Stats(); st.Mismatched != 0 {
		t.Errorf("%d ticks mismatched", st.Mismatched)
	}
}

// A seek is a new Cast (and a new client on it) that starts at the keyframe
// before the tick sought and hands over every tick up to it at once: the
// client's newest tick is the one sought before any time passes, with no
// mismatch; it keeps the speed, the pause and the player followed.
func TestCastSeeks(t *testing.T) {
	rp := castReplay(t)
	w := newWatcher(t, client.CastConfig{Replay: rp})
	first, last := w.cast.Span()
	w.playTo(first + 40)
	w.cl.Follow(3)
	w.play(time.Second / 60)
	w.cast.SetSpeed(2)
	w.cast.Pause()

	for _, target := range []uint32{first + 250, first + 17, last - 5, last + 100} {
		sought, err := w.cast.Seek(target)
		if err != nil {
			t.Fatal(err)
		}
		cl := client.New(sought, client.Config{Verify: true, Watch: true})
		cl.Poll()
		want := min(target, last)
		if newest, _ := cl.Newest(); newest != want || sought.Tick() != want {
			t.Errorf("seek to %d: the client's newest tick %d, the cast's %d; want %d", target, newest, sought.Tick(), want)
		}
		if sought.Speed() != 2 || !sought.Paused() {
			t.Errorf("seek to %d: speed %v, paused %v; want 2x, paused", target, sought.Speed(), sought.Paused())
		}
		if wt, _ := cl.Watching(); wt.Player != 3 {
			t.Errorf("seek to %d: watching %+v, want player 3 as before", target, wt)
		}
		sought.Resume()
		w2 := &watcher{t: t, clock: w.clock, cast: sought, cl: cl}
		w2.play(time.Second)
		if st := cl.Stats(); st.Mismatched != 0 || st.Verified == 0 {
			t.Errorf("seek to %d: %d verified, %d mismatched", target, st.Verified, st.Mismatched)
		}
		cl.Close()
	}
}

// The virtual clock: at 4x a real second delivers four times the ticks it
// does at 1x (and Now moves 4 s); paused, none, and Now stands still.
func TestCastSpeedAndPause(t *testing.T) {
	rp := castReplay(t)
	advance := func(speed float64, d time.Duration) (ticks uint32, moved time.Duration) {
		w := newWatcher(t, client.CastConfig{Replay: rp, Speed: speed})
		w.play(time.Second)
		from, at := w.cast.Tick(), w.cast.Now()
		w.play(d)
		return w.cast.Tick() - from, w.cast.Now().Sub(at)
	}
	one, d1 := advance(1, time.Second)
	four, d4 := advance(4, time.Second)
	if one != matchrec.TickRate || four != 4*one {
		t.Errorf("a second delivered %d ticks at 1x, %d at 4x; want %d and 4 times that", one, four, matchrec.TickRate)
	}
	if d1 != time.Second || d4 != 4*time.Second {
		t.Errorf("a second moved Now by %v at 1x, %v at 4x", d1, d4)
	}
	if slow, _ := advance(0.1, 4*time.Second); slow != matchrec.TickRate {
		t.Errorf("at 0.1x (kept to 0.25x) 4 s delivered %d ticks, want %d", slow, matchrec.TickRate)
	}

	w := newWatcher(t, client.CastConfig{Replay: rp})
	w.play(time.Second)
	w.cast.Pause()
	tick, at := w.cast.Tick(), w.cast.Now()
	w.play(2 * time.Second)
	if w.cast.Tick() != tick || !w.cast.Now().Equal(at) {
		t.Errorf("paused, 2 s moved the cast from tick %d to %d, Now by %v", tick, w.cast.Tick(), w.cast.Now().Sub(at))
	}
	w.cast.Resume()
	w.play(time.Second)
	if w.cast.Tick() != tick+matchrec.TickRate {
		t.Errorf("resumed, a second moved the cast from tick %d to %d", tick, w.cast.Tick())
	}
}

// A replay whose chunk was damaged says so (Err names the chunk), never
// panics, and plays on from the next keyframe to the end.
func TestCastSaysAReplayIsDamaged(t *testing.T) {
	rp := castReplay(t)
	k := rp.Chunks() / 2
	for ; k < rp.Chunks(); k++ {
		if h, _ := rp.Chunk(k); h.Kind == broadcast.KindDeltas {
			break
		}
	}
	_, b := rp.Chunk(k) // the replay's own bytes
	var c broadcast.Chunk
	if err := broadcast.ParseChunk(b, &c); err != nil {
		t.Fatal(err)
	}
	snap := c.Frames[len(c.Frames)/2].Snapshot
	for i := range min(len(snap), 8) {
		snap[len(snap)/2-4+i] ^= 0xa5
	}
	w := newWatcher(t, client.CastConfig{Replay: rp})
	_, last := w.cast.Span()
	w.playTo(last)
	err := w.cast.Err()
	if err == nil || !errors.Is(err, broadcast.ErrMalformed) && !errors.Is(err, broadcast.ErrMismatch) || !strings.Contains(err.Error(), "replay chunk") {
		t.Fatalf("a damaged chunk %d: Err() = %v", k, err)
	}
	t.Logf("Err() = %v", err)
	if newest, _ := w.cl.Newest(); newest != last {
		t.Errorf("the client stopped at tick %d, the replay ends at %d", newest, last)
	}
}

// A live broadcast: the Cast's viewer fetches the index and the chunks
// (here from memory), and the client plays the newest fragment from its
// keyframe after the buffer, every tick verified.
func TestCastFollowsALiveBroadcast(t *testing.T) {
	rp := castReplay(t)
	files := map[string][]byte{}
	var newest uint32
	for i := range rp.Chunks() {
		h, b := rp.Chunk(i)
		files["http://cast.test/b/"+broadcast.ChunkPath(h.Kind, h.Number)] = b
		if h.Kind == broadcast.KindDeltas {
			newest = h.Number
		}
	}
	kh, _ := rp.Chunk(rp.Seek(rp.LastTick() - 1))
	newest = min(newest, kh.Number)
	ix, _ := json.Marshal(broadcast.Index{Format: broadcast.Version, Protocol: protocol.Version, TickRate: matchrec.TickRate,
		FragmentTicks: 30, Ready: true, Oldest: 0, Newest: newest, Ended: true})
	files["http://cast.test/b/index.json"] = ix
	fetch := func(_ context.Context, url string, _ int) ([]byte, time.Duration, error) {
		if b, ok := files[url]; ok {
			return b, 0, nil
		}
		return nil, 0, broadcast.ErrNotFound
	}
	w := newWatcher(t, client.CastConfig{URL: "http://cast.test/b/", Fetch: fetch})
	defer w.cast.Close()
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(10 * time.Millisecond) {
		if _, l := w.cast.Span(); l == rp.LastTick() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the viewer never fetched the broadcast: span %v, err %v", w.cast.PlayStats(), w.cast.Err())
		}
	}
	first, last := w.cast.Span()
	w.play(time.Second) // inside the buffer
	if w.cast.Tick() != 0 {
		t.Errorf("played tick %d within the first second of a 1.5 s buffer", w.cast.Tick())
	}
	w.play(5 * time.Second)
	if !w.cast.Ended() || w.cast.Err() != nil {
		t.Errorf("ended %v, err %v", w.cast.Ended(), w.cast.Err())
	}
	ticks := uint64(last - first + 1)
	if st := w.cl.Stats(); st.Mismatched != 0 || st.Verified != ticks || !w.cl.Spectating() {
		t.Errorf("the client verified %d ticks (%d mismatched), want %d; spectating %v", st.Verified, st.Mismatched, ticks, w.cl.Spectating())
	}
	if wt, ok := w.cl.Watching(); !ok || wt.Player == 0 {
		t.Errorf("watching %+v (%v), want a player", wt, ok)
	}
}

// A live broadcast that a paused viewer falls behind: past a few fragments
// the Cast drops what waits and takes the broadcast up again from the
// next tick whole (a full snapshot it encodes from the decoded world,
// every live record); resumed, the client plays on from there, every tick
// verified.
func TestCastTakesALiveBroadcastUpAgain(t *testing.T) {
	rp := castReplay(t)
	files := map[string][]byte{}
	var last uint32
	for i := range rp.Chunks() {
		h, b := rp.Chunk(i)
		files[broadcast.ChunkPath(h.Kind, h.Number)] = b
		if h.Kind == broadcast.KindDeltas {
			last = h.Number
		}
	}
	// Each read of the index publishes one more fragment, up to allowed.
	var mu sync.Mutex
	newest, allowed := uint32(1), uint32(1)
	allow := func(n uint32) {
		mu.Lock()
		defer mu.Unlock()
		allowed = n
	}
	fetch := func(_ context.Context, url string, _ int) ([]byte, time.Duration, error) {
		path := strings.TrimPrefix(url, "http://cast.test/b/")
		if path == "index.json" {
			mu.Lock()
			defer mu.Unlock()
			ix := broadcast.Index{Format: broadcast.Version, Protocol: protocol.Version, TickRate: matchrec.TickRate,
				FragmentTicks: 30, Ready: true, Newest: newest, Ended: newest == last}
			newest = min(newest+1, last, allowed)
			b, err := json.Marshal(ix)
			return b, 0, err
		}
		if b, ok := files[path]; ok {
			return b, 0, nil
		}
		return nil, 0, broadcast.ErrNotFound
	}
	w := newWatcher(t, client.CastConfig{URL: "http://cast.test/b/", Fetch: fetch, Poll: time.Millisecond})
	defer w.cast.Close()
	// Fragment 1 plays, past the buffer; then the viewer pauses while
	// every other fragment comes.
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(10 * time.Millisecond) {
		if _, l := w.cast.Span(); l > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the viewer never fetched fragment 1: %+v, err %v", w.cast.PlayStats(), w.cast.Err())
		}
	}
	w.play(2 * time.Second)
	if w.cast.Tick() == 0 {
		t.Fatal("nothing played 2 s in")
	}
	w.cast.Pause()
	allow(last)
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(10 * time.Millisecond) {
		if _, l := w.cast.Span(); l == rp.LastTick() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the viewer never reached the broadcast's end: %+v, err %v", w.cast.PlayStats(), w.cast.Err())
		}
	}
	if r := w.cast.PlayStats().Restarts; r == 0 {
		t.Fatalf("a paused cast queued %d fragments without starting again", last)
	}
	w.cast.Resume()
	w.play(30 * time.Second)
	st, ps := w.cl.Stats(), w.cast.PlayStats()
	if !w.cast.Ended() || st.Mismatched != 0 || st.Verified != ps.Delivered || ps.Delivered == 0 || w.cast.Err() != nil {
		t.Errorf("ended %v; the client verified %d ticks, %d mismatched; the cast delivered %d (%d restarts), err %v",
			w.cast.Ended(), st.Verified, st.Mismatched, ps.Delivered, ps.Restarts, w.cast.Err())
	}
	if newest, _ := w.cl.Newest(); newest != rp.LastTick() {
		t.Errorf("the client's newest tick %d, the broadcast's last %d", newest, rp.LastTick())
	}
	scores := 0
	w.cl.Records(func(id uint32, _ uint16, _ []byte) {
		if kind, _ := protocol.RecordKind(id); kind == protocol.RecordScore {
			scores++
		}
	})
	if scores != 3 {
		t.Errorf("%d score records after the restart, want the 3 players'", scores)
	}
	t.Logf("%+v", ps)
}

// Damage anywhere in a replay file is refused when it is opened or said
// by Err while it plays: never a panic, and the client on the Cast plays
// on to the end of what it can.
func TestCastSurvivesDamageAnywhere(t *testing.T) {
	castReplay(t)
	file := castFile
	opened, failed := 0, 0
	for k := range 60 {
		b := append([]byte(nil), file...)
		at := 16 + k*(len(b)-16)/60
		b[at] ^= 0x5a
		b[min(at+1, len(b)-1)] ^= 0x33
		rp, err := broadcast.OpenReplay(b)
		if err != nil {
			continue
		}
		opened++
		w := newWatcher(t, client.CastConfig{Replay: rp, Speed: 4})
		for range 5000 {
			if w.cast.Ended() {
				break
			}
			w.play(time.Second / 10)
		}
		if !w.cast.Ended() {
			t.Errorf("damage at byte %d: the cast never ended (at tick %d)", at, w.cast.Tick())
		}
		if w.cast.Err() != nil {
			failed++
		}
	}
	t.Logf("%d of 60 damaged files opened; %d of those said so while playing", opened, failed)
	if opened == 0 || failed == 0 {
		t.Errorf("%d damaged files opened, %d said so: the test damaged nothing that plays", opened, failed)
	}
}

// A replay or a broadcast of another protocol is refused, saying which.
func TestCastRefusesAnotherProtocol(t *testing.T) {
	rp := castReplay(t)
	h := rp.Header
	head := len(broadcast.AppendReplayHeader(nil, h))
	h.Protocol++
	other, err := broadcast.OpenReplay(append(broadcast.AppendReplayHeader(nil, h), castFile[head:]...))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.NewCast(client.CastConfig{Replay: other}); err == nil || !strings.Contains(err.Error(), "protocol") {
		t.Errorf("a replay of protocol %d: %v, want it refused", h.Protocol, err)
	}

	files := map[string][]byte{}
	for i := range rp.Chunks() {
		ch, b := rp.Chunk(i)
		files["http://cast.test/b/"+broadcast.ChunkPath(ch.Kind, ch.Number)] = b
	}
	ix, _ := json.Marshal(broadcast.Index{Format: broadcast.Version, Protocol: protocol.Version + 1, TickRate: matchrec.TickRate,
		FragmentTicks: 30, Ready: true, Newest: 2})
	files["http://cast.test/b/index.json"] = ix
	fetch := func(_ context.Context, url string, _ int) ([]byte, time.Duration, error) {
		if b, ok := files[url]; ok {
			return b, 0, nil
		}
		return nil, 0, broadcast.ErrNotFound
	}
	w := newWatcher(t, client.CastConfig{URL: "http://cast.test/b/", Fetch: fetch})
	defer w.cast.Close()
	for deadline := time.Now().Add(2 * time.Minute); w.cast.Err() == nil; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("a broadcast of another protocol: no error")
		}
	}
	w.play(5 * time.Second)
	if err := w.cast.Err(); !strings.Contains(err.Error(), "protocol") || w.cast.Tick() != 0 {
		t.Errorf("a broadcast of another protocol: %v, played to tick %d", err, w.cast.Tick())
	}
}
