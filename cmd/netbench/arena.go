package main

import (
	"encoding/binary"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/bots/brain"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/game/server"
	"github.com/sightline-game/sightline/netcode/delta"
	"github.com/sightline-game/sightline/netcode/events"
	"github.com/sightline-game/sightline/netcode/interest"
	"github.com/sightline-game/sightline/netcode/linksim"
	"github.com/sightline-game/sightline/netcode/session"
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
	"github.com/sightline-game/sightline/netcode/view"
)

// The lanes of an arena run: every client's view goes out four times, each
// over its own pair of simulated links seeded alike. The first three share
// one budget high enough to send every view whole, so they carry the same
// views; the fourth is the game's own budget.
const (
	laneOurs     = iota // the project's format (netcode/delta)
	laneByteMask        // the byte-aligned reference, with ids (viewFormat)
	laneFull            // full snapshots, with ids (viewFormat without deltas)
	laneBudget          // the project's format under the game's default budget
	lanes
)

// unlimitedRate is the main lanes' budget in bytes per second: far above
// anything a view needs, so the sender never defers an entity.
const unlimitedRate = 1e9

// unlimitedPacket is the main lanes' packet cap: a full view of a crowd fits.
const unlimitedPacket = 1 << 20

// arenaResult is one arena run, as printed with -json. Rates and sizes are
// per client: bytes per second are the mean over the clients, bytes per
// packet the mean over every packet sent. Counts of ticks and packets are
// summed over the clients.
type arenaResult struct {
	Traffic   string  `json:"traffic"`
	Players   int     `json:"players"`
	Creatures int     `json:"creatures"`
	Hz        float64 `json:"hz"`
	Seconds   float64 `json:"seconds"`
	Loss      float64 `json:"loss"`
	Burst     float64 `json:"burst"`
	RTTms     float64 `json:"rtt_ms"`
	History   int     `json:"history"`
	Seed      uint64  `json:"seed"`
	Ticks     int     `json:"ticks"` // server ticks

	// DecodedTicks sums, over the clients, the ticks decoded in the
	// project's format; MismatchedTicks, over the clients and all four
	// lanes, the decoded ticks that differ from the server's view of that
	// client at that tick. DifferingViews counts client ticks on which the
	// three main lanes' views differ (0: the formats carry the same views).
	DecodedTicks    int `json:"decoded_ticks"`
	MismatchedTicks int `json:"mismatched_ticks"`
	DifferingViews  int `json:"differing_views"`

	// Per client, mean over the clients.
	Bps         float64 `json:"Bps"`
	BytemaskBps float64 `json:"bytemask_Bps"`
	FullBps     float64 `json:"full_Bps"`
	ZstdFullBps float64 `json:"zstd_full_Bps"`
	Bpp         float64 `json:"bytes_per_packet"`
	BytemaskBpp float64 `json:"bytemask_bytes_per_packet"`
	FullBpp     float64 `json:"full_bytes_per_packet"`
	ZstdFullBpp float64 `json:"zstd_full_bytes_per_packet"`
	Ratio       float64 `json:"ratio_to_bytemask"`
	ZstdRatio   float64 `json:"ratio_to_zstd_full"`

	MeanBaselineAge float64 `json:"mean_baseline_age"`
	FullFallbacks   uint64  `json:"full_fallbacks"` // full snapshots after the first ack, over the clients
	BytemaskFull    uint64  `json:"bytemask_full_fallbacks"`
	DownLost        uint64  `json:"down_lost"` // packets lost on the clients' downlinks, project's format
	Deferred        uint64  `json:"deferred_entity_ticks"`

	View          viewMix       `json:"view"`
	Bits          deltaBits     `json:"bits_per_delta"`
	DefaultBudget budgetResult  `json:"default_budget"`
	Game          gameMovement  `json:"game"`
	Match         matchActivity `json:"match"`
	// Replay is the match as a replay file keeps it.
	Replay *replayResult `json:"replay,omitempty"`
}

// deltaBits is where the bits of the project's deltas go (delta.Sizes),
// mean per delta over the run's deltas, with the entities they removed,
// added and changed.
type deltaBits struct {
	Deltas    uint64  `json:"deltas"`
	Header    float64 `json:"header"`
	Removed   float64 `json:"removed_set"`
	New       float64 `json:"new_entities"` // their ids and rows
	Changed   float64 `json:"changed_set"`
	Masks     float64 `json:"field_masks"`
	Residuals float64 `json:"residuals"`
	Rest      float64 `json:"coding_padding_check"`
	Total     float64 `json:"total"`

	RemovedEntities float64 `json:"removed_entities"`
	NewEntities     float64 `json:"new_entities_count"`
	ChangedEntities float64 `json:"changed_entities"`

	// Of New: the new entities' ids, and the rows coded as made by a
	// player (projectiles it fired), with how many.
	NewIDs       float64 `json:"new_ids"`
	Made         float64 `json:"made_rows"`
	MadeEntities float64 `json:"made_count"`

	// ByContext splits the changed entities' masks and residuals by the
	// context of their baseline row (protocol.ContextName).
	ByContext []contextBits `json:"by_context"`
}

// contextBits is what the changed entities of one context took, mean per
// delta.
type contextBits struct {
	Context  string  `json:"context"`
	Entities float64 `json:"entities"`
	Bits     float64 `json:"bits"`
}

// meanBits turns the sum of n deltas' sizes into their means.
func meanBits(z delta.Sizes, n uint64) deltaBits {
	if n == 0 {
		return deltaBits{}
	}
	m := func(v int) float64 { return float64(v) / float64(n) }
	return deltaBits{
		Deltas: n, Header: m(z.Header), Removed: m(z.Removed), New: m(z.New), Changed: m(z.Changed),
		Masks: m(z.Masks), Residuals: m(z.Residuals), Rest: m(z.Coding + z.Padding + z.Check), Total: m(z.Bits()),
		RemovedEntities: m(z.RemovedEntities), NewEntities: m(z.NewEntities), ChangedEntities: m(z.ChangedEntities),
		NewIDs: m(z.NewIDs), Made: m(z.Made), MadeEntities: m(z.MadeEntities),
		ByContext: byContext(z, m),
	}
}

// byContext turns the changes' sizes by context into their means, named.
func byContext(z delta.Sizes, m func(int) float64) []contextBits {
	var out []contextBits
	for k, c := range z.ByContext {
		if name := protocol.ContextName(k); name != "" {
			out = append(out, contextBits{Context: name, Entities: m(c.Entities), Bits: m(c.Bits)})
		}
	}
	return out
}

// viewMix is what a client's view holds, mean over the ticks sent: entities
// by kind, and how many enter and leave a second.
type viewMix struct {
	Entities      float64 `json:"entities"`
	Players       float64 `json:"players"`
	Creatures     float64 `json:"creatures"`
	Projectiles   float64 `json:"projectiles"`
	EnteringPerS  float64 `json:"entering_per_s"`
	LeavingPerS   float64 `json:"leaving_per_s"`
	SentPerS      float64 `json:"sent_per_s"` // entities written with fresh values: changed since the acknowledged view, or entering
	ViewRadiusPx  float64 `json:"view_radius_px"`
	ViewMarginPx  float64 `json:"view_margin_px"`
	SkippedPacket uint64  `json:"skipped_ticks"` // client ticks with no packet (a full view too soon after the last)
}

// budgetResult is the project's format under the game's default budget and
// datagram size, on the same match: what the budget defers.
type budgetResult struct {
	RateBps   float64 `json:"rate_Bps"`   // each client's budget
	PacketCap int     `json:"packet_cap"` // the largest snapshot payload
	// Bps is the format's bytes per client a second (the budget also
	// counts session.MaxHeaderSize bytes of framing a packet).
	Bps float64 `json:"Bps"`
	Bpp float64 `json:"bytes_per_packet"`
	// ShareOfUnlimited is Bps over the main line's.
	ShareOfUnlimited float64 `json:"share_of_unlimited"`
	// DeferredPerS is entity-ticks spent waiting per client a second;
	// DeferredShare is waiting entity-ticks over those that were sent or
	// waited.
	DeferredPerS     float64 `json:"deferred_entity_ticks_per_s"`
	DeferredShare    float64 `json:"deferred_share"`
	MaxDeferralTicks uint32  `json:"max_deferral_ticks"`
	MaxValueAgeTicks uint32  `json:"max_value_age_ticks"`
	LeanPackets      uint64  `json:"lean_packets"`
	DecodedTicks     int     `json:"decoded_ticks"`
	MismatchedTicks  int     `json:"mismatched_ticks"`
	FullFallbacks    uint64  `json:"full_fallbacks"`
	MeanBaselineAge  float64 `json:"mean_baseline_age"`
}

// gameMovement states the movement the traffic is made of: the game's own.
type gameMovement struct {
	WorldPx          float64 `json:"world_px"`
	PrecisionPx      float64 `json:"position_precision_px"`
	HeadingBits      uint8   `json:"heading_bits"`
	PlayerSpeedPxS   float64 `json:"player_speed_px_s"`
	DashSpeedPxS     float64 `json:"dash_speed_px_s"`
	CreatureSpeedPxS float64 `json:"creature_speed_px_s"`
	ProjectilePxS    float64 `json:"projectile_speed_px_s"`
	BitsPerEntity    int     `json:"bits_per_entity"`
}

// matchActivity is what the bots did, per minute: a match, not a walk.
type matchActivity struct {
	ShotsPerMin         float64 `json:"shots_per_min"`
	KillsPerMin         float64 `json:"player_deaths_per_min"`
	CreatureKillsPerMin float64 `json:"creature_kills_per_min"`
	PickupsPerMin       float64 `json:"pickups_per_min"`
	DashesPerMin        float64 `json:"dashes_per_min"`
}

// stream is one client's view in one lane: its sender, the client's
// receiver, the links between them, and the views sent, kept until they
// can no longer arrive, to check what the client decodes.
type stream struct {
	sender    *view.Sender
	receiver  *snapstream.Receiver
	down, up  *linksim.Link
	truth     []*snapshot.Snapshot
	truthTick []uint32
	onAck     func(p []byte)

	bytes, packets      uint64
	decoded, mismatched int
	skipped, sent       uint64
	viewsDiffer         int       // ticks this client's main lanes' views differed
	kinds               [3]uint64 // entities in views sent, by kind
}

// lane runs one format for every client. Lanes run side by side: each has
// its own view.Shared (the world ring is only read) and formats.
type lane struct {
	shared  *view.Shared
	choose  *smallest // the main lanes' format, which chooses delta or full itself
	streams []*stream
	batch   *batch // the full lane's packets of this tick, for zstd
	packet  []byte
	ack     []byte
	cands   []view.Candidate
	kinds   bool // count the views' kinds (one lane does)
	checkFn func(p []byte)
	cur     *stream
}

// arenaRun is an arena match with its bots and their clients' streams.
type arenaRun struct {
	o       options
	match   *server.Match
	ring    *view.WorldRing
	grid    *interest.Grid
	ents    interest.Entities
	lanes   [lanes]*lane
	bots    []*bot
	records recordBook
	history int
	// The full lane's packets of the tick before, compressed while the
	// lanes send the next.
	zstd     *compressor
	previous *batch
	wg       sync.WaitGroup
	// cast writes the match as a replay would keep it.
	cast *replayCast
}

// bot is a player the run plays with a brain, and its client's area of
// interest.
type bot struct {
	id      arena.PlayerID
	brain   *brain.Brain
	recs    botRecords
	seq     uint32
	area    *interest.Area
	members []int32
	cands   []view.Candidate

	// Who was in the area last tick, by slot: the tick and generation.
	inTick        []uint32
	inGen         []uint16
	entered, left uint64
	lastSize      int
}

// arenaHistory is the -history of an arena run: the game's unless set.
func arenaHistory(o options) int {
	if o.History > 0 {
		return o.History
	}
	return protocol.History
}

// runArena plays the arena for o.Seconds with o.Players bots and returns
// what every lane sent and what the clients decoded.
func runArena(o options) (arenaResult, error) {
	if o.Players < 1 {
		return arenaResult{}, fmt.Errorf("%w: -players %d, want at least 1", errFlags, o.Players)
	}
	r, err := newArenaRun(o)
	if err != nil {
		return arenaResult{}, err
	}
	ticks := int(math.Round(o.Seconds * arena.TickRate))
	for t := 1; t <= ticks; t++ {
		r.tick(uint32(t))
	}
	r.zstd.compress(r.previous)
	r.previous.reset()
	if r.cast != nil {
		if err := r.cast.end(); err != nil {
			return arenaResult{}, fmt.Errorf("replay: %w", err)
		}
	}
	return r.result(ticks)
}

// tick runs one server tick: the match steps, every lane sends every
// client its view side by side (and the last tick's full packets are
// compressed meanwhile), then the bots choose their inputs.
func (r *arenaRun) tick(tick uint32) {
	// Whole nanoseconds from the start, so that a latency of whole ticks
	// arrives on its tick, not a rounding later.
	now := time.Duration(tick) * time.Second / arena.TickRate
	r.step(tick)
	for _, l := range r.lanes {
		r.wg.Go(func() { l.send(tick, now, r.bots) })
	}
	r.wg.Go(r.compressPrevious)
	r.wg.Wait()
	full := r.lanes[laneFull]
	r.previous, full.batch = full.batch, r.previous
	full.batch.reset()
	r.play(tick)
}

func (r *arenaRun) compressPrevious() { r.zstd.compress(r.previous) }

// newArenaRun makes the match, its world ring and interest grid, the four
// lanes with a stream per player, and a bot per player, joined at tick 0.
func newArenaRun(o options) (*arenaRun, error) {
	creatures := o.Creatures
	if creatures == 0 {
		creatures = -1 // the arena's 0 means its default
	}
	w, err := arena.NewWorld(arena.Config{Seed: o.Seed, Creatures: creatures, MaxPlayers: max(arena.DefaultMaxPlayers, o.Players)})
	if err != nil {
		return nil, err
	}
	sch := protocol.Schema()
	history := arenaHistory(o)
	z, err := newCompressor()
	if err != nil {
		return nil, err
	}
	r := &arenaRun{
		o: o, match: server.NewMatch(w), history: history, zstd: z, previous: &batch{},
		ring: view.NewWorldRing(sch, 2*(history+1)),
		grid: interest.NewGrid(uint32(protocol.WorldSize*protocol.UnitsPerPx), uint32(protocol.ViewRadius*protocol.UnitsPerPx/2)),
	}
	link := linksim.Config{Loss: o.Loss, BurstLen: o.Burst}
	down, up := link, link
	down.Latency = time.Duration(o.RTTms * float64(time.Millisecond) / 2)
	up.Latency = down.Latency
	// Views stay checkable until they can no longer arrive.
	keep := int(math.Ceil(down.Latency.Seconds()*arena.TickRate)) + 8

	main := view.Config{History: history, Rate: unlimitedRate, TickRate: arena.TickRate, PacketCap: unlimitedPacket}
	budget := view.Config{
		History: history, Rate: protocol.DefaultRate, TickRate: arena.TickRate,
		PacketCap: protocol.DatagramLimit - session.MaxHeaderSize, Overhead: session.MaxHeaderSize,
	}
	for k := range lanes {
		send, recv, err := laneFormats(k, sch)
		if err != nil {
			return nil, err
		}
		l := &lane{kinds: k == laneOurs}
		if k == laneBudget {
			l.shared = view.NewShared(r.ring, send) // exactly as the match server
		} else {
			l.choose = &smallest{Format: send}
			l.shared = view.NewShared(r.ring, l.choose)
		}
		l.checkFn = l.check
		if k == laneFull {
			l.batch = &batch{}
		}
		cfg := main
		if k == laneBudget {
			cfg = budget
		}
		for i := range o.Players {
			s, err := newStream(l.shared, cfg, recv, sch, history, keep, down, up, o.Seed+uint64(i)*0x9e3779b9)
			if err != nil {
				return nil, err
			}
			l.streams = append(l.streams, s)
		}
		r.lanes[k] = l
	}
	for i := range o.Players {
		b := &bot{
			id:     arena.PlayerID(i + 1),
			brain:  brain.New(o.Seed*7919 + uint64(i)),
			area:   interest.NewArea(uint32(protocol.ViewRadius*protocol.UnitsPerPx), uint32(protocol.ViewMargin*protocol.UnitsPerPx), 1<<sch.IndexBits),
			inTick: make([]uint32, 1<<sch.IndexBits),
			inGen:  make([]uint16, 1<<sch.IndexBits),
		}
		w.AddPlayer(b.id)
		b.brain.SetMap(w.Map())
		if p, ok := w.Pose(b.id); ok {
			b.brain.SetSelf(p.Slot)
		}
		b.recs = botRecords{book: &r.records, id: b.id}
		r.bots = append(r.bots, b)
	}
	if !o.Replay && o.Record == "" {
		return r, nil
	}
	if r.cast, err = newReplayCast(o, r.match); err != nil {
		return nil, err
	}
	for _, b := range r.bots {
		if p, ok := w.Pose(b.id); ok {
			r.cast.w.Record(protocol.RecordSeat|uint32(b.id), 0, protocol.AppendSeat(nil, p.Slot), false)
		}
	}
	r.match.AllRecords(r.cast.w.Record)
	return r, nil
}

// laneFormats returns the formats of lane k: one for its senders, one for
// its receivers (a format keeps scratch space).
func laneFormats(k int, sch *snapshot.Schema) (send, recv snapstream.Format, err error) {
	switch k {
	case laneByteMask, laneFull:
		s, err := newViewFormat(sch, k == laneByteMask)
		if err != nil {
			return nil, nil, err
		}
		r, err := newViewFormat(sch, k == laneByteMask)
		return s, r, err
	default: // the sender's and the receiver's codecs share the tables
		t, err := delta.NewTables(sch)
		if err != nil {
			return nil, nil, err
		}
		return delta.CodecOf(t), delta.CodecOf(t), nil
	}
}

// newStream makes one client's stream in a lane: its sender on sh, its
// receiver decoding with f, and its links, the downlink seeded with seed.
func newStream(sh *view.Shared, cfg view.Config, f snapstream.Format, sch *snapshot.Schema, history, keep int, down, up linksim.Config, seed uint64) (*stream, error) {
	vs, err := view.NewSender(sh, cfg)
	if err != nil {
		return nil, err
	}
	d, err := linksim.New(down, seed)
	if err != nil {
		return nil, fmt.Errorf("downlink: %w", err)
	}
	u, err := linksim.New(up, linksim.DeriveSeed(seed))
	if err != nil {
		return nil, fmt.Errorf("uplink: %w", err)
	}
	s := &stream{
		sender: vs, receiver: snapstream.NewReceiver(f, sch, history), down: d, up: u,
		truth: make([]*snapshot.Snapshot, keep), truthTick: make([]uint32, keep),
	}
	for i := range s.truth {
		s.truth[i] = snapshot.New(sch)
	}
	s.onAck = func(p []byte) {
		if len(p) == 4 {
			s.sender.Ack(binary.LittleEndian.Uint32(p))
		}
	}
	return s, nil
}

// step advances the match a tick, quantizes it once into the ring and
// builds the interest grid, then gives every bot its candidates, as the
// match server does.
func (r *arenaRun) step(tick uint32) {
	m := r.match
	m.Step()
	// One-shot events ride their own stream: only the replay has them.
	m.TakeEvents(func(kind events.Kind, body []byte) {
		if r.cast != nil {
			r.cast.w.Event(uint8(kind), body)
		}
	})
	m.ChangedRecords(func(id uint32, gen uint16, payload []byte, deleted bool) {
		r.records.update(id, gen, payload, deleted)
		if r.cast != nil {
			r.cast.w.Record(id, gen, payload, deleted)
		}
	})
	snap := r.ring.Begin(tick)
	m.Fill(snap)
	r.ring.Commit(tick)
	if r.cast != nil {
		r.cast.tick(tick, snap)
	}
	r.ents.Load(snap, protocol.FieldX, protocol.FieldY)
	r.grid.Build(r.ents.Xs, r.ents.Ys)
	for _, b := range r.bots {
		r.candidates(b, tick)
	}
}

// candidates fills b.cands with the entities in its player's area and this
// tick's priorities, as game/server chooses them: nearer is more urgent,
// what the player aims at doubly so, its own entity always goes.
func (r *arenaRun) candidates(b *bot, tick uint32) {
	o := r.match.Observe(b.id)
	b.members = b.area.Query(b.members[:0], r.grid, &r.ents, o.X, o.Y)
	entered := 0
	for _, e := range b.members {
		sl, gen := r.ents.Slots[e], r.ents.Generations[e]
		if b.inTick[sl] != tick-1 || b.inGen[sl] != gen {
			entered++
		}
		b.inTick[sl], b.inGen[sl] = tick, gen
	}
	if tick > 1 { // the first view is everything entering at once
		b.entered += uint64(entered)
		b.left += uint64(b.lastSize + entered - len(b.members))
	}
	b.lastSize = len(b.members)
	b.cands = o.AppendCandidates(b.cands[:0], &r.ents, b.members, b.area.Reach())
}

// send runs one tick of the lane for every client: the acks that arrived,
// the client's view encoded against its acknowledged one, the packets
// that arrived decoded and checked, and the client's ack.
func (l *lane) send(tick uint32, now time.Duration, bots []*bot) {
	for i, s := range l.streams {
		s.up.Deliver(now, s.onAck)
		l.cands = append(l.cands[:0], bots[i].cands...) // Append reorders its candidates
		var rep view.Report
		l.packet, rep = s.sender.Append(l.packet[:0], tick, l.cands)
		if rep.Skipped {
			s.skipped++
		} else {
			v := s.sender.LastView()
			slot := tick % uint32(len(s.truth))
			s.truth[slot].CopyFrom(v)
			s.truthTick[slot] = tick
			s.bytes += uint64(len(l.packet))
			s.packets++
			s.sent += uint64(rep.Sent)
			if l.kinds {
				for e := range v.Len() {
					s.kinds[min(v.Value(e, protocol.FieldKind), 2)]++
				}
			}
			if l.batch != nil {
				l.batch.add(l.packet)
			}
			s.down.Send(now, l.packet)
		}
		l.cur = s
		s.down.Deliver(now, l.checkFn)
		if ack := s.receiver.Newest(); ack != 0 {
			l.ack = binary.LittleEndian.AppendUint32(l.ack[:0], ack)
			s.up.Send(now, l.ack)
		}
	}
}

// check decodes a packet that arrived at the client of l.cur and compares
// the state it leaves with the view the server sent for that tick.
func (l *lane) check(p []byte) {
	s := l.cur
	h, err := s.receiver.Receive(p)
	if err != nil {
		return
	}
	s.decoded++
	slot := h.Tick % uint32(len(s.truth))
	if s.truthTick[slot] != h.Tick || !s.receiver.Snapshot(h.Tick).Equal(s.truth[slot]) {
		s.mismatched++
	}
}

// play compares the main lanes' views, then has every bot choose its next
// input from what its client decoded (the project's format), as a bot's
// brain does in a real match.
func (r *arenaRun) play(tick uint32) {
	ours, mask, full := r.lanes[laneOurs], r.lanes[laneByteMask], r.lanes[laneFull]
	for i, b := range r.bots {
		if !sameView(tick, ours.streams[i], mask.streams[i]) || !sameView(tick, ours.streams[i], full.streams[i]) {
			ours.streams[i].viewsDiffer++
		}
		var state *snapshot.Snapshot
		if t := ours.streams[i].receiver.Newest(); t != 0 {
			state = ours.streams[i].receiver.Snapshot(t)
		}
		b.brain.Read(&b.recs)
		p, ok := r.match.World.Pose(b.id)
		if !ok {
			continue
		}
		b.seq++
		r.match.ApplyInput(b.id, b.seq, b.brain.Next(p.Slot, state))
	}
}

// sameView reports whether two lanes of one client sent the same view at
// tick, or both sent none.
func sameView(tick uint32, a, b *stream) bool {
	slot := tick % uint32(len(a.truth))
	sa, sb := a.truthTick[slot] == tick, b.truthTick[slot] == tick
	if sa != sb {
		return false
	}
	return !sa || a.truth[slot].Equal(b.truth[slot])
}

// laneTotals sums a lane's streams.
type laneTotals struct {
	bytes, packets      uint64
	decoded, mismatched int
	skipped, sent       uint64
	sender              view.SenderStats
	lost                uint64
	emptyClients        int // clients that decoded nothing
}

func (l *lane) totals() laneTotals {
	var t laneTotals
	if l.choose != nil {
		t.sender.FullNotSmaller = l.choose.fulls
	}
	for _, s := range l.streams {
		t.bytes += s.bytes
		t.packets += s.packets
		t.decoded += s.decoded
		t.mismatched += s.mismatched
		t.skipped += s.skipped
		t.sent += s.sent
		t.lost += s.down.Stats().Lost
		if s.decoded == 0 {
			t.emptyClients++
		}
		st := s.sender.Stats()
		t.sender.Deltas += st.Deltas
		t.sender.FullNoAck += st.FullNoAck
		t.sender.FullTooOld += st.FullTooOld
		t.sender.FullNotSmaller += st.FullNotSmaller
		t.sender.BaselineAge += st.BaselineAge
		t.sender.EntitiesSent += st.EntitiesSent
		t.sender.Deferrals += st.Deferrals
		t.sender.MaxDeferral = max(t.sender.MaxDeferral, st.MaxDeferral)
		t.sender.MaxValueAge = max(t.sender.MaxValueAge, st.MaxValueAge)
		t.sender.Lean += st.Lean
	}
	return t
}

func (t laneTotals) fallbacks() uint64 { return t.sender.FullTooOld + t.sender.FullNotSmaller }

func (t laneTotals) meanAge() float64 {
	if t.sender.Deltas == 0 {
		return 0
	}
	return float64(t.sender.BaselineAge) / float64(t.sender.Deltas)
}

// perPacket divides bytes by packets, 0 for none.
func perPacket(bytes, packets uint64) float64 {
	if packets == 0 {
		return 0
	}
	return float64(bytes) / float64(packets)
}

// result sums the run's lanes into per-client figures; it fails if a
// client decoded nothing in some lane.
func (r *arenaRun) result(ticks int) (arenaResult, error) {
	o := r.o
	secs := float64(ticks) / arena.TickRate
	perClient := func(bytes uint64) float64 { return float64(bytes) / float64(len(r.bots)) / secs }
	ours, mask, full, bud := r.lanes[laneOurs].totals(), r.lanes[laneByteMask].totals(), r.lanes[laneFull].totals(), r.lanes[laneBudget].totals()
	res := arenaResult{
		Traffic: "arena", Players: o.Players, Creatures: r.match.World.Config().Creatures, Hz: arena.TickRate, Seconds: secs,
		Loss: o.Loss, Burst: o.Burst, RTTms: o.RTTms, History: r.history, Seed: o.Seed, Ticks: ticks,
		DecodedTicks:    ours.decoded,
		MismatchedTicks: ours.mismatched + mask.mismatched + full.mismatched + bud.mismatched,
		Bps:             perClient(ours.bytes),
		BytemaskBps:     perClient(mask.bytes),
		FullBps:         perClient(full.bytes),
		ZstdFullBps:     perClient(r.zstd.bytes),
		Bpp:             perPacket(ours.bytes, ours.packets),
		BytemaskBpp:     perPacket(mask.bytes, mask.packets),
		FullBpp:         perPacket(full.bytes, full.packets),
		ZstdFullBpp:     perPacket(r.zstd.bytes, r.zstd.packets),
		MeanBaselineAge: ours.meanAge(),
		FullFallbacks:   ours.fallbacks(),
		BytemaskFull:    mask.fallbacks(),
		DownLost:        ours.lost,
		Deferred:        ours.sender.Deferrals + mask.sender.Deferrals + full.sender.Deferrals,
		Game: gameMovement{
			WorldPx: protocol.WorldSize, PrecisionPx: protocol.PosPrecision, HeadingBits: protocol.HeadingQuant.Bits(),
			PlayerSpeedPxS: arena.PlayerSpeed, DashSpeedPxS: arena.DashSpeed, CreatureSpeedPxS: arena.CreatureSpeed,
			ProjectilePxS: arena.ProjectileSpeed, BitsPerEntity: protocol.Schema().EntityBits(),
		},
	}
	if c := r.lanes[laneOurs].choose; c != nil {
		if z := c.bits.Bits(); uint64(z) != 8*c.deltaBytes {
			return res, fmt.Errorf("netbench: the deltas' sections add up to %d bits, their packets to %d bytes", z, c.deltaBytes)
		}
		res.Bits = meanBits(c.bits, c.deltas)
	}
	if mask.bytes > 0 {
		res.Ratio = float64(ours.bytes) / float64(mask.bytes)
	}
	if r.zstd.bytes > 0 {
		res.ZstdRatio = float64(ours.bytes) / float64(r.zstd.bytes)
	}
	for _, s := range r.lanes[laneOurs].streams {
		res.DifferingViews += s.viewsDiffer
	}
	var kinds [3]uint64
	for _, s := range r.lanes[laneOurs].streams {
		for k := range kinds {
			kinds[k] += s.kinds[k]
		}
	}
	var entered, left uint64
	for _, b := range r.bots {
		entered += b.entered
		left += b.left
	}
	views := float64(max(ours.packets, 1))
	res.View = viewMix{
		Entities:  float64(kinds[0]+kinds[1]+kinds[2]) / views,
		Players:   float64(kinds[protocol.KindPlayer]) / views,
		Creatures: float64(kinds[protocol.KindCreature]) / views, Projectiles: float64(kinds[protocol.KindProjectile]) / views,
		EnteringPerS: perClient(entered), LeavingPerS: perClient(left), SentPerS: perClient(ours.sent),
		ViewRadiusPx: protocol.ViewRadius, ViewMarginPx: protocol.ViewMargin, SkippedPacket: ours.skipped,
	}
	res.DefaultBudget = budgetResult{
		RateBps: protocol.DefaultRate, PacketCap: protocol.DatagramLimit - session.MaxHeaderSize,
		Bps: perClient(bud.bytes), Bpp: perPacket(bud.bytes, bud.packets),
		DeferredPerS:     perClient(bud.sender.Deferrals),
		MaxDeferralTicks: bud.sender.MaxDeferral, MaxValueAgeTicks: bud.sender.MaxValueAge,
		LeanPackets: bud.sender.Lean, DecodedTicks: bud.decoded, MismatchedTicks: bud.mismatched,
		FullFallbacks: bud.fallbacks(), MeanBaselineAge: bud.meanAge(),
	}
	if res.Bps > 0 {
		res.DefaultBudget.ShareOfUnlimited = res.DefaultBudget.Bps / res.Bps
	}
	if n := bud.sender.Deferrals + bud.sender.EntitiesSent; n > 0 {
		res.DefaultBudget.DeferredShare = float64(bud.sender.Deferrals) / float64(n)
	}
	st := r.match.World.Stats()
	mins := secs / 60
	res.Match = matchActivity{
		ShotsPerMin: float64(st.ShotsFired) / mins, KillsPerMin: float64(st.Deaths) / mins,
		CreatureKillsPerMin: float64(st.CreatureKills) / mins,
		PickupsPerMin:       float64(st.PickupsTaken+st.SpreadTaken+st.PowerTaken) / mins,
		DashesPerMin:        float64(st.Dashes) / mins,
	}
	if r.cast != nil {
		rp := r.cast.result(secs, res.DefaultBudget.Bps*float64(len(r.bots)))
		res.Replay = &rp
	}
	if n := ours.emptyClients + mask.emptyClients + full.emptyClients + bud.emptyClients; n > 0 {
		return res, fmt.Errorf("%w: %d client streams", errDecodedNothing, n)
	}
	return res, nil
}
