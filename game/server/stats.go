package server

import (
	"time"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/netcode/transport"
)

// Stats are the match's counters, safe to read from any goroutine.
type Stats struct {
	Tick uint32
	// Clients counts the players connected (bots included), Spectators
	// the spectators watching.
	Clients, Spectators    int
	Joined, Left, TimedOut uint64
	// SpectatorsJoined and SpectatorsLeft count spectators that came and
	// went.
	SpectatorsJoined, SpectatorsLeft uint64
	Refused                          uint64 // connections closed because the match (or its spectators) was full
	SnapshotsSent                    uint64
	BytesSent                        uint64
	Congested                        uint64 // snapshots skipped for a congested channel
	FullFallbacks                    uint64 // full snapshots after the first ack (baseline too old, or delta not smaller)
	BadInputs                        uint64 // input datagrams dropped as malformed
	BadAcks                          uint64 // record-ack datagrams dropped as malformed
	// WrongChannel counts messages clients sent on a channel that runs
	// only toward them (snapshots), dropped unread; WrongChannelBytes
	// their bytes.
	WrongChannel, WrongChannelBytes uint64
	// LastTick and MaxTick are how long Step took, the last time and at
	// most; TotalTick is the sum over all ticks, for a mean.
	LastTick, MaxTick, TotalTick time.Duration
	// Overruns counts ticks whose Step took longer than the tick period:
	// the match fell behind real time then.
	Overruns uint64
	// TickP50 and TickP99 are the median and 99th percentile of how long
	// Step took, over the ticks since the start or the last ResetTickTimes,
	// to within tickBucket (rounded up; beyond the histogram's 100 ms, at
	// least that).
	TickP50, TickP99 time.Duration
	// Round is the round under way (1 for the first) and RoundLeft the time
	// left in it, at the tick rate; Intermission is set between a round's
	// end and the next's start (RoundLeft is 0 then). All zero for a world
	// without rounds (see RoundClock).
	Round        uint32
	RoundLeft    time.Duration
	Intermission bool
	// Rewind counts the shots judged by what their shooters saw, for a
	// World that does (ShotJudge).
	Rewind arena.RewindStats
	// InputWaitTicks and InputsApplied are the ticks the world's applied
	// inputs waited in their queues and how many it applied (ShotJudge):
	// InputWaitTicks/InputsApplied is the mean wait.
	InputWaitTicks, InputsApplied uint64
	// InputsQueued counts the inputs the world took into its players'
	// queues (a repeated one is not taken again; one a full queue then
	// dropped is), InputsTrimmed those it dropped from a queue that held
	// spare inputs too long, and DroppedQueueFull those it dropped when a
	// queue was full (RuleCounter; arena.Stats says how each counts).
	InputsQueued, InputsTrimmed, DroppedQueueFull uint64
	// ShotsFired counts the projectiles the world fired (a spread shot's
	// pellets each) and ShotsRefused the fire inputs it refused: sooner
	// than the weapon's interval, or during the intermission (RuleCounter).
	ShotsFired, ShotsRefused uint64
	// RecordResends counts record revisions sent again for want of an
	// acknowledgement, and EventsSent the events framed to clients, over
	// the match's life (clients gone included).
	RecordResends, EventsSent uint64
	// Deferred is the entities waiting for budget now, over all clients.
	Deferred int
	// TickUpTo counts the ticks Step took at most TickBounds()[i] to step,
	// over the match's life (ResetTickTimes does not clear it): a
	// cumulative histogram, with TotalTick its sum and TicksTimed its count.
	TickUpTo   [TickBuckets]uint64
	TicksTimed uint64
	Players    []PlayerStats
}

// PlayerStats are one client's counters.
type PlayerStats struct {
	ID             PlayerID
	ConnectedFor   time.Duration
	SnapshotsSent  uint64
	BytesSent      uint64
	Congested      uint64
	FullFallbacks  uint64
	WrongChannel   uint64  // messages sent on a channel that runs only toward the client, dropped
	MeanAge        float64 // mean baseline age of deltas, in ticks
	AckedTick      uint32
	InputsApplied  uint64
	BytesPerSec    int    // snapshot bytes over the last second
	InView         int    // entities the client holds
	EntitiesSent   uint64 // entities written with fresh values, in all
	Deferred       int    // changed or entering entities waiting for budget now
	OldestDeferral uint32 // ticks the longest-waiting of them has waited
	MaxValueAge    uint32 // the oldest value the client has held, in ticks
	HistoryBytes   int    // memory of the client's view history
	// Conn counts the connection's traffic, including messages dropped for
	// a full send buffer or receive queue.
	Conn transport.Stats
}

// The tick-time histogram: tickBuckets buckets tickBucket wide, the last
// one counting every tick longer.
// TickBuckets is the number of Stats.TickUpTo's buckets.
const TickBuckets = 10

// TickBounds returns the upper bounds of Stats.TickUpTo's buckets: 250 µs
// doubling to 133 ms (four ticks at 30 Hz).
func TickBounds() [TickBuckets]time.Duration {
	return [TickBuckets]time.Duration{
		250 * time.Microsecond, 500 * time.Microsecond, time.Millisecond, 2 * time.Millisecond,
		4 * time.Millisecond, 8 * time.Millisecond, 16 * time.Millisecond, 33 * time.Millisecond,
		66 * time.Millisecond, 133 * time.Millisecond,
	}
}

const (
	tickBucket  = 50 * time.Microsecond
	tickBuckets = 2000 // up to 100 ms
)

// tickPercentile returns the time under which the share p of the ticks
// counted in hist took (the upper edge of its bucket); 0 with none.
func tickPercentile(hist *[tickBuckets]uint32, p float64) time.Duration {
	var n uint64
	for _, c := range hist {
		n += uint64(c)
	}
	if n == 0 {
		return 0
	}
	rank := uint64(p*float64(n) + 0.999999) // the rank-th smallest, 1-based
	var seen uint64
	for i, c := range hist {
		if seen += uint64(c); seen >= max(rank, 1) {
			return time.Duration(i+1) * tickBucket
		}
	}
	return tickBuckets * tickBucket
}

// ResetTickTimes forgets the tick times counted so far, so that TickP50
// and TickP99 cover the ticks from now on (after a warm-up, say).
func (s *Server) ResetTickTimes() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.tickHist[:])
}

func (s *Server) count(f func(*Stats)) {
	s.mu.Lock()
	f(&s.stats)
	s.mu.Unlock()
}

func (s *Server) record(sent, bytes, congested uint64, took time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := &s.stats
	st.Tick = s.tick
	st.Clients = len(s.clients) - s.spectators
	st.Spectators = s.spectators
	st.SnapshotsSent += sent
	st.BytesSent += bytes
	st.Congested += congested
	st.LastTick = took
	st.MaxTick = max(st.MaxTick, took)
	st.TotalTick += took
	st.TicksTimed++
	s.tickHist[min(int(took/tickBucket), tickBuckets-1)]++
	for i, b := range TickBounds() {
		if took <= b {
			st.TickUpTo[i]++
		}
	}
	if took > s.period {
		st.Overruns++
	}
	if s.clock != nil {
		var end uint32
		st.Round, end = s.clock.Round()
		st.Intermission = s.clock.Intermission()
		st.RoundLeft = 0
		if now := s.clock.Tick(); !st.Intermission && end > now {
			st.RoundLeft = time.Duration(float64(end-now) / s.cfg.TickRate * float64(time.Second))
		}
	}
	if s.judge != nil {
		st.Rewind = s.judge.RewindStats()
		st.InputWaitTicks, st.InputsApplied = s.judge.InputWait()
	}
	if s.rules != nil {
		rs := s.rules.Stats()
		st.InputsQueued, st.InputsTrimmed, st.DroppedQueueFull = rs.InputsQueued, rs.InputsTrimmed, rs.DroppedQueueFull
		st.ShotsFired, st.ShotsRefused = rs.ShotsFired, rs.ShotsRefused
	}
	st.FullFallbacks, st.BadInputs, st.BadAcks = s.goneFull, s.goneBad, s.goneBadAcks
	st.WrongChannel, st.WrongChannelBytes = s.goneWrongWay, s.goneWrongWayBytes
	st.RecordResends, st.EventsSent, st.Deferred = s.goneResends, s.goneEvents, 0
	st.Players = st.Players[:0]
	for _, c := range s.clients {
		ss := c.sess.Stats()
		full := ss.FullTooOld + ss.FullNotSmaller
		st.FullFallbacks += full
		st.BadInputs += ss.BadInputPackets
		st.BadAcks += c.st.records.Stats().BadAcks
		st.WrongChannel += c.wrongWay
		st.WrongChannelBytes += c.wrongWayBytes
		st.RecordResends += c.st.records.Stats().Resends
		st.EventsSent += c.st.out.Stats().Events
		st.Deferred += c.last.Deferred
		ps := PlayerStats{
			ID: c.id, ConnectedFor: s.now.Sub(c.joined), SnapshotsSent: c.sent, BytesSent: c.bytes,
			Congested: c.congested, FullFallbacks: full, AckedTick: c.sess.AckedTick(), InputsApplied: ss.Inputs,
			WrongChannel: c.wrongWay,
		}
		if ss.Deltas > 0 {
			ps.MeanAge = float64(ss.BaselineAge) / float64(ss.Deltas)
		}
		for _, n := range c.recent {
			ps.BytesPerSec += int(n)
		}
		vs := c.views.Stats()
		ps.InView, ps.Deferred, ps.OldestDeferral = c.last.InView, c.last.Deferred, c.last.OldestDeferral
		ps.EntitiesSent, ps.MaxValueAge, ps.HistoryBytes = vs.EntitiesSent, vs.MaxValueAge, c.views.HistoryBytes()
		ps.Conn = c.conn.Stats()
		st.Players = append(st.Players, ps)
	}
}

// Stats returns the match's counters, with one entry per connected player.
func (s *Server) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.stats
	st.Players = append([]PlayerStats(nil), s.stats.Players...)
	st.TickP50, st.TickP99 = tickPercentile(&s.tickHist, 0.5), tickPercentile(&s.tickHist, 0.99)
	return st
}
