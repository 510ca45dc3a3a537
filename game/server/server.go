package server

import (
	"context"
	"sync"
	"time"

	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/broadcast"
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

	// cast writes the match's broadcast (Config.Broadcast), or is nil.
	cast        *broadcast.Writer
	castStarted bool

	joins   chan joining
	clients []*client // players and spectators, in the order they joined
	// spectators counts the clients that watch.
	spectators int

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
		cast:   newCast(cfg, world),
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
		joins:  make(chan joining, max(64, cfg.MaxClients+cfg.MaxSpectators)),
	}, nil
}

// Add hands a new connection to the match; it joins at the next tick. If
// the queue of joining connections is full the connection is closed.
func (s *Server) Add(conn transport.Conn) { s.join(joining{conn: conn}) }

// joining is a connection waiting to join, to play or to watch.
type joining struct {
	conn  transport.Conn
	watch bool
}

func (s *Server) join(j joining) {
	conn := j.conn
	select {
	case s.joins <- j:
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
	defer s.castEnd()
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
	return s.serve(ctx, accept, s.Add)
}

// ServeSpectators adds every connection accept returns as a spectator
// (Watch) until ctx ends or accept fails.
func (s *Server) ServeSpectators(ctx context.Context, accept func(context.Context) (transport.Conn, error)) error {
	return s.serve(ctx, accept, s.Watch)
}

func (s *Server) serve(ctx context.Context, accept func(context.Context) (transport.Conn, error), add func(transport.Conn)) error {
	for {
		conn, err := accept(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		add(conn)
	}
}

// MaxClients returns the most clients the match takes (Config.MaxClients,
// defaults applied): its capacity, bots included.
func (s *Server) MaxClients() int { return s.cfg.MaxClients }

// MaxSpectators returns the most spectators the match takes at once
// (Config.MaxSpectators, defaults applied; 0: none).
func (s *Server) MaxSpectators() int { return max(0, s.cfg.MaxSpectators) }

// Tick returns the newest tick stepped.
func (s *Server) Tick() uint32 { return s.tick }

func (s *Server) closeAll() {
	for _, c := range s.clients {
		s.remove(c, "server stopping")
	}
	s.clients = s.clients[:0]
	for {
		select {
		case j := <-s.joins:
			j.conn.Close()
		default:
			return
		}
	}
}
