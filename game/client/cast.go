package client

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/broadcast"
	"github.com/sightline-game/sightline/netcode/events"
	"github.com/sightline-game/sightline/netcode/replica"
	"github.com/sightline-game/sightline/netcode/session"
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
	"github.com/sightline-game/sightline/netcode/transport"
)

// A Cast plays a broadcast or a replay (package netcode/broadcast) to an
// unchanged Client, as Quake III plays a demo through its network code: it
// is a transport.Conn whose far end is not a server but the broadcast's
// frames, each turned into exactly the datagrams a spectator's connection
// would deliver for that tick. The Client (with Config.Watch) decodes and
// verifies them as it would a live match's:
//
//   - the snapshot datagram: the frame's hash in the session framing, then
//     the frame's snapshot packet (a delta against the tick before, or a
//     keyframe's full packet);
//   - the events, framed by the Cast's own events.Outbox on
//     transport.Events: first the welcome (the broadcast's preamble:
//     player 0, the map's seed), then whom the spectator watches, then
//     what happened on each tick;
//   - the records, by the Cast's own replica.Sender on transport.Replicas,
//     which the Client's acks clear (seat records, protocol.RecordSeat,
//     stay with the Cast: it follows players by them).
//
// The spectator's requests (Follow, FlyTo) are answered by the Cast itself,
// as a match server answers them: a player followed while it is in the
// match, the leader by score otherwise, or a free camera.
//
// Frames are due by a virtual clock (Now): tick T at the start plus (T -
// T0) / tick rate, run at Speed (0.25x to 4x) and stopped by Pause. The
// game's interpolator runs on Now too, so that a replay played fast, slow
// or paused moves smoothly.

// Speeds a Cast plays at.
const (
	MinCastSpeed = 0.25
	MaxCastSpeed = 4
)

// DefaultCastBuffer is how far behind the frames a live broadcast's
// playback starts (and starts again after running dry), so that a fetch
// come late does not stop it.
const DefaultCastBuffer = 1500 * time.Millisecond

// castQueueFragments is how many fragments of a live broadcast the Cast
// holds ahead of its playback: past that (a viewer paused, or far behind)
// it drops them and starts again from the next tick, whole.
const castQueueFragments = 4

// CastConfig sets up a Cast: Replay, or URL for a live broadcast.
type CastConfig struct {
	// Session is the wire agreement (default protocol.Session()): its
	// snapshot format must be the broadcast's.
	Session session.Config
	// Replay is the replay to play.
	Replay *broadcast.Replay
	// URL is the base of a live broadcast to follow (its index is
	// URL+"index.json"), when Replay is nil.
	URL string
	// Fetch gets the live broadcast's index and chunks (default
	// broadcast.HTTPFetch; in the browser, PageFetch). The bytes it
	// returns are the Cast's to keep: frames wait in them until due.
	Fetch broadcast.Fetch
	// Poll is how often a live broadcast's index is read while waiting
	// (default 1 s).
	Poll time.Duration
	// Start is where a replay starts (0: its first tick): the ticks from
	// the keyframe at or before it up to it are delivered at once, without
	// their events, and play goes on from there (a seek).
	Start uint32
	// Buffer is how far behind its frames a live broadcast plays (default
	// DefaultCastBuffer).
	Buffer time.Duration
	// Speed is the speed to start at (default 1), within MinCastSpeed and
	// MaxCastSpeed; Paused starts paused.
	Speed  float64
	Paused bool
	// Follow is the player to follow from the start (0: the leader).
	Follow uint32
	// Clock is the real time (default time.Now); tests pass their own.
	Clock func() time.Time
	// Logger hears of chunks that did not decode (default: discard).
	Logger *slog.Logger
}

// CastStats are a Cast's counters.
type CastStats struct {
	// PlaybackStats are the decoder's: ticks decoded and verified against
	// the broadcast's hashes, and those that differed.
	broadcast.PlaybackStats
	// Delivered counts the ticks handed to the client.
	Delivered uint64
	// Restarts counts the times a live broadcast was dropped and taken up
	// again whole (a paused or starved viewer); Skipped the chunks of a
	// replay passed over after one did not decode.
	Restarts, Skipped uint64
}

// castFrame is one tick, kept until it is due. Its byte slices alias the
// chunk it came from, which nothing changes.
type castFrame struct {
	tick, hash uint32
	// key: the snapshot is full and the records are every live record.
	key     bool
	snap    []byte
	records []broadcast.Record
	events  []broadcast.Event
}

type castMsg struct {
	ch   transport.Channel
	from int // in Cast.outBuf
	to   int
}

// castWatch is what the spectator watches, as a server keeps it.
type castWatch struct {
	free    bool
	follow  uint32
	x, y    uint32
	told    protocol.Watch
	toldAny bool
}

// Cast is a transport.Conn that plays a broadcast or a replay: see
// NewCast. Its methods are safe for concurrent use.
type Cast struct {
	cfg      CastConfig
	clock    func() time.Time
	log      *slog.Logger
	format   snapstream.Format // Receive's (a live feeder has its own)
	done     chan struct{}
	closeOne sync.Once
	cancel   context.CancelFunc
	recvMu   sync.Mutex // held by Receive, whose buffers it guards
	// origin is the virtual time the records' resend clock counts from.
	origin time.Time

	mu sync.Mutex
	// The virtual clock: virt at real time base, running at speed.
	virt, base time.Time
	speed      float64
	paused     bool
	tickRate   float64

	// The schedule: tick t0 is due at v0; anchored once it is set.
	anchored  bool
	t0        uint32
	v0        time.Time
	queue     []castFrame
	head      int
	tick      uint32 // newest delivered
	first     uint32 // first tick seen
	last      uint32 // newest tick queued
	sourceEnd bool   // the source has nothing more
	frags     int    // a live broadcast's fragment length

	// A replay's chunks: the next to take.
	rp   *broadcast.Replay
	next int
	pb   *broadcast.Playback

	// The streams to the client.
	out       *events.Outbox
	in        *events.Inbox
	rec       *replica.Sender
	forwarded map[uint32]uint16 // records published to the client, by id: generation
	seats     map[uint32]uint16 // player: slot of its entity
	scores    map[uint32]uint32 // player: score
	watch     castWatch
	preamble  []byte
	welcomed  bool
	outBuf    []byte
	outMsgs   []castMsg
	deliver   []byte // Receive's copy of the messages, handed out unlocked
	delivMsgs []castMsg
	scratch   []byte

	stats CastStats
	conn  transport.Stats
	err   error
}

// NewCast returns a Cast playing cfg.Replay, or following the live
// broadcast at cfg.URL (until Close).
func NewCast(cfg CastConfig) (*Cast, error) {
	if cfg.Session.Schema == nil {
		cfg.Session = protocol.Session()
	}
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Fetch == nil {
		cfg.Fetch = defaultCastFetch()
	}
	if cfg.Buffer <= 0 {
		cfg.Buffer = DefaultCastBuffer
	}
	if cfg.Speed == 0 {
		cfg.Speed = 1
	}
	if cfg.Replay == nil && cfg.URL == "" {
		return nil, errors.New("client: a cast needs a replay or a broadcast's URL")
	}
	now := cfg.Clock()
	c := &Cast{
		cfg: cfg, clock: cfg.Clock, log: cfg.Logger,
		format:    cfg.Session.Format(cfg.Session.Schema),
		done:      make(chan struct{}),
		virt:      now,
		base:      now,
		origin:    now,
		speed:     clampSpeed(cfg.Speed),
		paused:    cfg.Paused,
		tickRate:  protocol.DefaultTickRate,
		out:       events.NewOutbox(events.OutboxConfig{Validate: protocol.ValidateEventBody}),
		in:        events.NewInbox(events.InboxConfig{Validate: protocol.ValidateEventBody}),
		rec:       replica.NewSender(replica.SenderConfig{}),
		forwarded: make(map[uint32]uint16),
		seats:     make(map[uint32]uint16),
		scores:    make(map[uint32]uint32),
		frags:     broadcast.DefaultFragmentTicks,
	}
	c.watch.follow = cfg.Follow
	if rp := cfg.Replay; rp != nil {
		if rp.Header.Protocol != protocol.Version {
			return nil, fmt.Errorf("client: a replay of protocol %d; this game speaks protocol %d", rp.Header.Protocol, protocol.Version)
		}
		if rp.Header.TickRate > 0 {
			c.tickRate = rp.Header.TickRate
		}
		c.rp = rp
		c.pb = broadcast.NewPlayback(cfg.Session.Format(cfg.Session.Schema), cfg.Session.Schema)
		start := max(cfg.Start, rp.FirstTick())
		start = min(start, rp.LastTick())
		c.next = rp.Seek(start)
		c.anchored, c.t0, c.v0 = true, start, now
		return c, nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	c.cancel = cancel
	go c.follow(ctx)
	return c, nil
}

func clampSpeed(s float64) float64 {
	if math.IsNaN(s) {
		return 1
	}
	return min(max(s, MinCastSpeed), MaxCastSpeed)
}

// vnow returns the virtual time; c.mu is held.
func (c *Cast) vnow() time.Time {
	if c.paused {
		return c.virt
	}
	return c.virt.Add(time.Duration(float64(c.clock().Sub(c.base)) * c.speed))
}

// rebase restarts the virtual clock's run from now; c.mu is held.
func (c *Cast) rebase() {
	c.virt = c.vnow()
	c.base = c.clock()
}

// Now returns the virtual time: it runs at Speed, and stands still while
// paused. Frames are due by it; a game interpolates by it.
func (c *Cast) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.vnow()
}

// Pause stops the virtual clock: no frame is due until Resume.
func (c *Cast) Pause() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.rebase()
	c.paused = true
}

// Resume starts the virtual clock again.
func (c *Cast) Resume() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.rebase()
	c.paused = false
}

// Paused reports whether the clock is stopped.
func (c *Cast) Paused() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.paused
}

// SetSpeed sets how fast the virtual clock runs, kept within MinCastSpeed
// and MaxCastSpeed.
func (c *Cast) SetSpeed(s float64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.rebase()
	c.speed = clampSpeed(s)
}

// Speed returns the virtual clock's speed.
func (c *Cast) Speed() float64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.speed
}

// TickRate returns the match's ticks a second.
func (c *Cast) TickRate() float64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.tickRate
}

// Tick returns the newest tick delivered (0 before the first).
func (c *Cast) Tick() uint32 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.tick
}

// Span returns the first and last tick: a replay's, or what a live
// broadcast gave so far (0, 0 before its first frame).
func (c *Cast) Span() (first, last uint32) {
	if c.rp != nil {
		return c.rp.FirstTick(), c.rp.LastTick()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.first, c.last
}

// IsReplay reports whether the Cast plays a replay (and can Seek).
func (c *Cast) IsReplay() bool { return c.rp != nil }

// Ended reports whether every tick the source had was delivered: a
// replay played to its end, or a broadcast whose match ended.
func (c *Cast) Ended() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sourceEnd && c.head == len(c.queue) && (c.rp == nil || c.next >= c.rp.Chunks())
}

// PlayStats returns the Cast's counters.
func (c *Cast) PlayStats() CastStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stats
}

// Err returns the first trouble the source met: a chunk that did not
// decode (playback goes on from the next keyframe), a tick that decoded
// to other than its hash, a live broadcast that could not be fetched.
func (c *Cast) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Seek returns a new Cast on the same replay starting at tick (within
// its span), at the same speed, paused or not, following the same player:
// the caller makes a new Client (and game) on it, a new epoch. It is an
// error for a live broadcast.
func (c *Cast) Seek(tick uint32) (*Cast, error) {
	if c.rp == nil {
		return nil, errors.New("client: a live broadcast cannot seek")
	}
	c.mu.Lock()
	cfg := c.cfg
	cfg.Start, cfg.Speed, cfg.Paused = tick, c.speed, c.paused
	cfg.Follow = 0
	if !c.watch.free {
		cfg.Follow = c.watch.follow
	}
	c.mu.Unlock()
	return NewCast(cfg)
}

// Following returns whom the Cast's views follow as the spectator last
// asked (0: the leader), and whether they come from its free camera
// instead: what a Seek carries over.
func (c *Cast) Following() (player uint32, free bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.watch.follow, c.watch.free
}

// fail notes err as the Cast's trouble, if it is the first; c.mu is held.
func (c *Cast) fail(err error) {
	if c.err == nil {
		c.log.Warn("cast", "err", err)
		c.err = err
		return
	}
	c.log.Debug("cast", "err", err)
}

// Send takes what the client sends: its acks of the records, and its
// requests on the event stream (whom to watch); its input datagrams
// (acks of snapshots) need no answer.
func (c *Cast) Send(ch transport.Channel, p []byte) error {
	select {
	case <-c.done:
		return transport.ErrClosed
	default:
	}
	if len(p) > transport.MaxMessageSize {
		return transport.ErrTooLarge
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.conn.SentMessages++
	c.conn.SentBytes += uint64(len(p))
	switch ch {
	case transport.Replicas:
		c.rec.HandleAck(p)
	case transport.Events:
		if err := c.in.Handle(p, c.request); err != nil {
			c.log.Debug("cast: the client's event stream", "err", err)
		}
	}
	return nil
}

// request takes one event from the spectator; c.mu is held.
func (c *Cast) request(e events.Event) {
	if e.Kind != protocol.KindWatch {
		return // its name, chat: nobody hears them
	}
	w, err := protocol.ParseWatch(e.Body)
	if err != nil {
		return
	}
	if w.Mode == protocol.WatchFree {
		limit := protocol.PosQuant.Quantize(protocol.WorldSize)
		c.watch.free = true
		c.watch.x, c.watch.y = min(w.X, limit), min(w.Y, limit)
		return
	}
	c.watch.free = false
	c.watch.follow = 0
	if _, ok := c.seats[w.Player]; ok {
		c.watch.follow = w.Player
	}
}

// Receive hands fn the datagrams of every frame due by the virtual clock,
// and what the streams have to send (a watch answered, records resent).
func (c *Cast) Receive(fn func(ch transport.Channel, p []byte)) int {
	select {
	case <-c.done:
		return 0
	default:
	}
	c.recvMu.Lock()
	defer c.recvMu.Unlock()
	c.mu.Lock()
	c.outBuf, c.outMsgs = c.outBuf[:0], c.outMsgs[:0]
	now := c.vnow()
	c.feedReplay(now)
	c.deliverDue(now)
	if c.welcomed {
		c.tell()
	}
	c.flush(now)
	// Hand the messages out without the lock: the client answers (acks)
	// from fn.
	c.deliver = append(c.deliver[:0], c.outBuf...)
	c.delivMsgs = append(c.delivMsgs[:0], c.outMsgs...)
	buf, msgs := c.deliver, c.delivMsgs
	for _, m := range msgs {
		c.conn.ReceivedMessages++
		c.conn.ReceivedBytes += uint64(m.to - m.from)
	}
	c.mu.Unlock()
	for _, m := range msgs {
		fn(m.ch, buf[m.from:m.to:m.to])
	}
	return len(msgs)
}

// due returns the newest tick due at now, and false before any.
func (c *Cast) due(now time.Time) (uint32, bool) {
	if !c.anchored {
		return 0, false
	}
	d := now.Sub(c.v0)
	if d < 0 {
		return 0, false
	}
	ticks := float64(d)*c.tickRate/float64(time.Second) + 1e-6
	return c.t0 + uint32(min(ticks, math.MaxUint32/2)), true
}

// deliverDue turns every queued frame due at now into datagrams.
func (c *Cast) deliverDue(now time.Time) {
	if c.rp == nil && c.anchored && c.tick != 0 && c.head < len(c.queue) && c.queue[c.head].tick > c.tick+1 && c.queue[c.head].tick != c.t0 {
		c.anchored = false // a live broadcast taken up again further on
	}
	if !c.anchored && c.head < len(c.queue) {
		// A live broadcast's first frame, or its first after a restart or
		// running dry: play from it, Buffer from now.
		c.anchored, c.t0, c.v0 = true, c.queue[c.head].tick, now.Add(c.cfg.Buffer)
	}
	upTo, ok := c.due(now)
	if !ok {
		return
	}
	for c.head < len(c.queue) && c.queue[c.head].tick <= upTo {
		f := &c.queue[c.head]
		c.frame(f, now)
		*f = castFrame{}
		c.head++
	}
	if c.head == len(c.queue) {
		c.queue, c.head = c.queue[:0], 0
		if c.rp == nil && !c.sourceEnd && upTo > c.tick+1 {
			c.anchored = false // ran dry: wait for the next frames, a buffer ahead
		}
	}
}

// frame turns one frame into the client's datagrams.
func (c *Cast) frame(f *castFrame, now time.Time) {
	if !c.welcomed {
		c.welcomed = true
		c.push(f.tick, protocol.KindWelcome, c.preamble)
	}
	for _, r := range f.records {
		c.record(r)
	}
	if f.key {
		// Every live record is in a keyframe: the others are gone.
		for id, gen := range c.forwarded {
			if !slices.ContainsFunc(f.records, func(r broadcast.Record) bool { return r.ID == id }) {
				c.rec.Delete(id, gen)
				delete(c.forwarded, id)
			}
		}
		for p := range c.seats {
			if !slices.ContainsFunc(f.records, func(r broadcast.Record) bool { return r.ID == protocol.RecordSeat|p }) {
				delete(c.seats, p)
			}
		}
	}
	c.tell()
	if f.tick >= c.cfg.Start {
		for _, e := range f.events {
			if err := c.out.Push(events.Event{Kind: events.Kind(e.Kind), Tick: f.tick, Body: e.Body}); err != nil {
				c.log.Debug("cast: event not passed on", "tick", f.tick, "kind", e.Kind, "err", err)
			}
		}
	}
	c.flushEvents()
	c.flushRecords(now)
	from := len(c.outBuf)
	c.outBuf = session.AppendSnapshotHeader(c.outBuf, session.SnapshotHeader{HasHash: true, Hash: f.hash})
	c.outBuf = append(c.outBuf, f.snap...)
	c.outMsgs = append(c.outMsgs, castMsg{ch: transport.Snapshots, from: from, to: len(c.outBuf)})
	c.tick = f.tick
	c.stats.Delivered++
}

// record takes a record's new state: seats and scores the Cast keeps to
// answer the spectator; every record but a seat goes on to the client.
func (c *Cast) record(r broadcast.Record) {
	kind, index := protocol.RecordKind(r.ID)
	switch kind {
	case protocol.RecordSeat:
		slot, err := protocol.ParseSeat(r.Payload)
		if r.Deleted || err != nil {
			delete(c.seats, index)
		} else {
			c.seats[index] = slot
		}
		return
	case protocol.RecordScore:
		if s, err := protocol.ParseScore(r.Payload); err == nil && !r.Deleted {
			c.scores[index] = s.Score
		} else {
			delete(c.scores, index)
		}
	}
	var err error
	if r.Deleted {
		err = c.rec.Delete(r.ID, r.Gen)
		delete(c.forwarded, r.ID)
	} else {
		err = c.rec.Publish(r.ID, r.Gen, r.Payload)
		c.forwarded[r.ID] = r.Gen
	}
	if err != nil {
		c.log.Debug("cast: record not passed on", "id", r.ID, "err", err)
	}
}

// leader returns the player with the highest score (the first to join, the
// lowest id, among equals), or the first player when nobody has a score;
// 0 when nobody is in the match.
func (c *Cast) leader() uint32 {
	best, most, scored := uint32(0), uint32(0), false
	for p := range c.seats {
		n, ok := c.scores[p]
		switch {
		case ok && (!scored || n > most || n == most && p < best):
			best, most, scored = p, n, true
		case !scored && (best == 0 || p < best):
			best = p
		}
	}
	return best
}

// tell sends the spectator whom it watches now, if that changed since it
// was last told (a server's spectator is told the same way).
func (c *Cast) tell() {
	w := &c.watch
	var now protocol.Watch
	if w.free {
		now = protocol.Watch{Mode: protocol.WatchFree, X: w.x, Y: w.y}
	} else {
		if _, ok := c.seats[w.follow]; !ok {
			w.follow = c.leader()
		}
		now = protocol.Watch{Mode: protocol.WatchFollow, Player: w.follow, Slot: c.seats[w.follow]}
		if w.follow == 0 {
			now.Slot = 0
		}
	}
	if w.toldAny && now == w.told {
		return
	}
	w.told, w.toldAny = now, true
	c.push(c.tick, protocol.KindWatch, protocol.AppendWatch(c.scratch[:0], now))
}

// push queues an event of the Cast's own for the client.
func (c *Cast) push(tick uint32, k events.Kind, body []byte) {
	if err := c.out.Push(events.Event{Kind: k, Tick: tick, Body: body}); err != nil {
		c.log.Warn("cast: event not passed on", "kind", k, "err", err)
	}
}

// flush frames what the streams have to send.
func (c *Cast) flush(now time.Time) {
	c.flushEvents()
	c.flushRecords(now)
}

func (c *Cast) flushEvents() {
	for c.out.Len() > 0 {
		from := len(c.outBuf)
		var n int
		c.outBuf, n = c.out.AppendNext(c.outBuf, protocol.DatagramLimit)
		if n == 0 {
			return
		}
		c.outMsgs = append(c.outMsgs, castMsg{ch: transport.Events, from: from, to: len(c.outBuf)})
	}
}

// flushRecords sends the records due, by the virtual clock's time since
// the Cast began.
func (c *Cast) flushRecords(now time.Time) {
	elapsed := now.Sub(c.origin)
	for {
		from := len(c.outBuf)
		var n int
		c.outBuf, n = c.rec.AppendDue(c.outBuf, elapsed, protocol.DatagramLimit)
		if n == 0 {
			c.outBuf = c.outBuf[:from]
			return
		}
		c.outMsgs = append(c.outMsgs, castMsg{ch: transport.Replicas, from: from, to: len(c.outBuf)})
	}
}

// feedReplay decodes the replay's chunks until the queue holds the frames
// due at now (and one more chunk's worth is not needed yet).
func (c *Cast) feedReplay(now time.Time) {
	if c.rp == nil {
		return
	}
	upTo, _ := c.due(now)
	for c.next < c.rp.Chunks() && (c.head == len(c.queue) || c.last < upTo) {
		h, b := c.rp.Chunk(c.next)
		if !c.pb.Started() && h.Kind != broadcast.KindKeyframe {
			c.next++
			c.stats.Skipped++
			continue
		}
		c.next++
		err := c.pb.Add(b, func(f *broadcast.Frame, _ *snapshot.Snapshot) {
			c.enqueue(f, c.format)
			if len(c.preamble) == 0 {
				c.preamble = append(c.preamble, c.pb.Preamble()...)
			}
		})
		c.stats.PlaybackStats = c.pb.Stats()
		if err != nil {
			c.fail(fmt.Errorf("replay chunk %d of %d (%s %d, ticks %d-%d): %w", c.next-1, c.rp.Chunks(), h.Kind, h.Number, h.First, h.Last(), err))
			if !errors.Is(err, broadcast.ErrMismatch) {
				c.pb.Reset() // go on from the next keyframe
			}
		}
	}
	if c.next >= c.rp.Chunks() {
		c.sourceEnd = true
	}
}

// enqueue keeps a copy of frame f until it is due; c.mu is held. Its
// bytes alias its chunk's, which stay as they are.
func (c *Cast) enqueue(f *broadcast.Frame, format snapstream.Format) {
	h, err := format.ReadHeader(f.Snapshot, f.Tick)
	cf := castFrame{
		tick: f.Tick, hash: f.Hash, key: err == nil && h.Full(), snap: f.Snapshot,
		records: slices.Clone(f.Records), events: slices.Clone(f.Events),
	}
	c.queue = append(c.queue, cf)
	if c.first == 0 {
		c.first = f.Tick
	}
	c.last = f.Tick
}

// follow runs a live broadcast's viewer until Close, feeding the queue;
// after an error it tries again a Poll later.
func (c *Cast) follow(ctx context.Context) {
	sc := c.cfg.Session
	pb := broadcast.NewPlayback(sc.Format(sc.Schema), sc.Schema)
	format := sc.Format(sc.Schema)
	v := broadcast.NewViewer(broadcast.ViewerConfig{URL: c.cfg.URL, Fetch: c.cfg.Fetch, Poll: c.cfg.Poll}, pb)
	// live mirrors the records, to start again from any tick whole.
	live := map[uint32]broadcast.Record{}
	restart := false
	full := snapshot.New(sc.Schema)
	for {
		err := v.Run(ctx, func(f *broadcast.Frame, world *snapshot.Snapshot) {
			for _, r := range f.Records {
				if r.Deleted {
					delete(live, r.ID)
				} else {
					live[r.ID] = r
				}
			}
			if h, err := format.ReadHeader(f.Snapshot, f.Tick); err == nil && h.Full() {
				clear(live)
				for _, r := range f.Records {
					live[r.ID] = r
				}
			}
			c.mu.Lock()
			defer c.mu.Unlock()
			if ix := v.Index(); ix.Protocol != protocol.Version {
				if c.err == nil {
					c.fail(fmt.Errorf("broadcast %s: of protocol %d; this game speaks protocol %d", c.cfg.URL, ix.Protocol, protocol.Version))
					c.cancel() // nothing of it can be played
				}
				return
			}
			if ix := v.Index(); ix.TickRate > 0 {
				c.tickRate = ix.TickRate
				c.frags = max(ix.FragmentTicks, 1)
			}
			if len(c.preamble) == 0 {
				c.preamble = append(c.preamble, pb.Preamble()...)
			}
			c.stats.PlaybackStats = pb.Stats()
			if len(c.queue)-c.head > castQueueFragments*c.frags {
				// Too far behind (paused?): drop what waits and go on from
				// this tick, whole.
				c.queue, c.head, c.anchored = c.queue[:0], 0, false
				c.stats.Restarts++
				restart = true
			}
			if !restart {
				c.enqueue(f, format)
				return
			}
			restart = false
			full.CopyFrom(world)
			key := broadcast.Frame{Tick: f.Tick, Hash: f.Hash, Snapshot: format.AppendFull(nil, f.Tick, full), Events: f.Events}
			for _, id := range sortedIDs(live) {
				key.Records = append(key.Records, live[id])
			}
			c.enqueue(&key, format)
		})
		c.mu.Lock()
		if err != nil {
			c.fail(fmt.Errorf("broadcast %s: %w", c.cfg.URL, err))
		}
		c.stats.PlaybackStats = pb.Stats()
		if err == nil && ctx.Err() == nil {
			c.sourceEnd = true // the match ended
			c.mu.Unlock()
			return
		}
		c.mu.Unlock()
		t := time.NewTimer(max(c.cfg.Poll, time.Second))
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}

func sortedIDs(m map[uint32]broadcast.Record) []uint32 {
	ids := make([]uint32, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// Close ends the Cast (and a live broadcast's fetching).
func (c *Cast) Close() error {
	c.closeOne.Do(func() {
		close(c.done)
		if c.cancel != nil {
			c.cancel()
		}
	})
	return nil
}

// Done is closed by Close.
func (c *Cast) Done() <-chan struct{} { return c.done }

// Stats returns the datagrams handed to the client and taken from it.
func (c *Cast) Stats() transport.Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := c.conn
	st.Path = "broadcast"
	if c.rp != nil {
		st.Path = "replay"
	}
	return st
}
