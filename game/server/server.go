package server

import (
	"context"
	"sync"
	"time"

	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/interest"
	"github.com/sightline-game/sightline/netcode/transport"
	"github.com/sightline-game/sightline/netcode/view"
)

// Server runs one match. Add may be called from any goroutine; Step and Run
// belong to one goroutine.
type Server struct {
	cfg    Config
	period time.Duration // of one tick
	world  World
	clock  RoundClock  // world, if it plays in rounds
	judge  ShotJudge   // world, if it judges shots in the past
	rules  RuleCounter // world, if it counts what became of inputs and shots
	pacer  InputPacer  // world, if its input queues tell how deep they ran
	timer  StepTimer   // world, if it is told when its steps ran
	ring   *view.WorldRing
	shared *view.Shared
	grid   *interest.Grid
	ents   interest.Entities
	buf    []byte
	tick   uint32
	now    time.Time
	start  time.Time
	// elapsed is the time since the first tick, the records' clock.
	elapsed time.Duration
	body    []byte // scratch for event bodies
	next    PlayerID

	// Counters of clients that left, so totals never go backwards.
	goneFull, goneBad, goneBadAcks  uint64
	goneResends, goneEvents         uint64 // record resends and events sent to clients gone
	goneWrongWay, goneWrongWayBytes uint64

	// Overruns not yet logged, and when the last was (logged at most
	// every overrunLogEvery).
	overrunsUnlogged uint64
	overrunLoggedAt  time.Time

	joins   chan transport.Conn
	clients []*client

	mu       sync.Mutex // guards stats and tickHist
	stats    Stats
	tickHist [tickBuckets]uint32 // how long Step took, counted by tickBucket
	tickUpTo [TickBuckets]uint64 // how long Step took, counted by TickBounds (never reset)
}

// New returns a server for world. It refuses a config that fails Validate.
func New(cfg Config, world World) (*Server, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	sch := cfg.Session.Schema
	ring := view.NewWorldRing(sch, 2*(cfg.Session.History+1))
	clock, _ := world.(RoundClock)
	judge, _ := world.(ShotJudge)
	pacer, _ := world.(InputPacer)
	rules, _ := world.(RuleCounter)
	timer, _ := world.(StepTimer)
	return &Server{
		clock:  clock,
		judge:  judge,
		pacer:  pacer,
		rules:  rules,
		timer:  timer,
		cfg:    cfg,
		period: time.Duration(float64(time.Second) / cfg.TickRate),
		world:  world,
		ring:   ring,
		shared: view.NewShared(ring, cfg.Session.Format(sch)),
		grid:   interest.NewGrid(uint32(protocol.WorldSize*protocol.UnitsPerPx), uint32(cfg.ViewRadius*protocol.UnitsPerPx/2)),
		buf:    make([]byte, 0, transport.MaxMessageSize),
		body:   make([]byte, 0, 256),
		joins:  make(chan transport.Conn, max(64, cfg.MaxClients)),
	}, nil
}

// Add hands a new connection to the match; it joins at the next tick. If
// the queue of joining connections is full the connection is closed.
func (s *Server) Add(conn transport.Conn) {
	select {
	case s.joins <- conn:
	default:
		s.cfg.Logger.Warn("join queue full: connection refused")
		conn.Close()
	}
}

// Run steps the match at the tick rate until ctx ends, then closes every
// connection. With Config.BeforeTick it calls that at each tick, before
// the step.
//
// Ticks fall on whole multiples of the period since the Unix epoch
// (NextTick), so the matches of one process tick together: a transport
// that reads its socket in rounds then reads one round for all of them,
// and no match's wait for its round is prolonged by another's traffic.
func (s *Server) Run(ctx context.Context) error {
	next := NextTick(time.Now(), s.period)
	t := time.NewTimer(time.Until(next))
	defer t.Stop()
	defer s.closeAll()
	for {
		select {
		case <-ctx.Done():
			return nil
		case now := <-t.C:
			if s.cfg.BeforeTick != nil {
				s.cfg.BeforeTick(next)
			}
			s.Step(now)
			// A tick that ran late skips the ticks it overran, as a
			// time.Ticker drops them.
			next = next.Add(s.period)
			if behind := time.Since(next); behind > 0 {
				next = next.Add((behind/s.period + 1) * s.period)
			}
			t.Reset(time.Until(next))
		}
	}
}

// NextTick returns the first tick after now of a clock ticking every
// period on whole multiples of period since the Unix epoch. It keeps now's
// monotonic reading, so the ticks that follow by adding period are immune
// to changes of the wall clock.
func NextTick(now time.Time, period time.Duration) time.Time {
	into := time.Duration(now.UnixNano() % int64(period))
	return now.Add(period - into)
}

// Serve adds every connection accept returns until ctx ends or accept fails.
func (s *Server) Serve(ctx context.Context, accept func(context.Context) (transport.Conn, error)) error {
	for {
		conn, err := accept(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		s.Add(conn)
	}
}

// MaxClients returns the most clients the match takes (Config.MaxClients,
// defaults applied): its capacity, bots included.
func (s *Server) MaxClients() int { return s.cfg.MaxClients }

// Tick returns the newest tick stepped.
func (s *Server) Tick() uint32 { return s.tick }

func (s *Server) closeAll() {
	for _, c := range s.clients {
		s.remove(c, "server stopping")
	}
	s.clients = s.clients[:0]
	for {
		select {
		case conn := <-s.joins:
			conn.Close()
		default:
			return
		}
	}
}
