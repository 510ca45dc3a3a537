package server

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/broadcast"
	"github.com/sightline-game/sightline/netcode/session"
	"github.com/sightline-game/sightline/netcode/view"
)

// Config sets up a match server. Zero fields take the defaults noted.
type Config struct {
	// TickRate is the simulation and snapshot rate in Hz (default protocol.DefaultTickRate).
	TickRate float64
	// Timeout drops a client that sent nothing for this long (default 5 s).
	Timeout time.Duration
	// JoinGrace is the timeout of a client that has sent nothing yet since
	// its channels opened (default 3x Timeout): a browser tab may take
	// seconds to start its game.
	JoinGrace time.Duration
	// MaxClients caps connected players (bots included); a connection
	// beyond it is closed (default 64). Spectators are not counted.
	MaxClients int
	// MaxSpectators caps the spectators watching at once (Watch); a
	// connection beyond it is closed (default 16; negative: none).
	MaxSpectators int
	// Verify sends every client a hash of every tick, so that any client
	// can count desyncs; otherwise only clients that ask get them.
	Verify bool
	// Rate is each client's snapshot budget in bytes per second (default
	// protocol.DefaultRate); at least MinRate, or New refuses the config.
	Rate float64
	// ViewRadius and ViewMargin (px) bound what a client sees: entities enter
	// within ViewRadius and leave beyond ViewRadius+ViewMargin (defaults from protocol).
	ViewRadius, ViewMargin float64
	// Session is the wire agreement with clients (default protocol.Session()).
	Session session.Config
	// Logger receives joins, leaves and timeouts (default: discard).
	Logger *slog.Logger
	// BeforeTick, if set, is called at each tick, just before the step,
	// with the time the tick was due. A transport that reads its socket in
	// rounds passes its round here (webrtc.Server.ReadRound, which returns
	// once a round begun since due has passed its stack), so that every
	// input that came before the tick is in it.
	BeforeTick func(due time.Time)
	// Broadcast, if not empty, has the match written as a broadcast (the
	// whole world every tick, its records and events; package
	// netcode/broadcast) into these sinks: an origin.Server that HTTP
	// caches fan out, a broadcast.Recorder keeping a replay file.
	Broadcast []broadcast.Sink
	// FragmentTicks is the ticks of a broadcast's fragment (default
	// broadcast.DefaultFragmentTicks, 3 s at 30 Hz).
	FragmentTicks int
}

func (c Config) withDefaults() Config {
	if c.TickRate <= 0 {
		c.TickRate = protocol.DefaultTickRate
	}
	if c.Timeout <= 0 {
		c.Timeout = 5 * time.Second
	}
	if c.JoinGrace <= 0 {
		c.JoinGrace = 3 * c.Timeout
	}
	if c.MaxClients <= 0 {
		c.MaxClients = 64
	}
	if c.MaxSpectators == 0 {
		c.MaxSpectators = DefaultMaxSpectators
	}
	if c.Rate <= 0 {
		c.Rate = protocol.DefaultRate
	}
	if c.ViewRadius <= 0 {
		c.ViewRadius = protocol.ViewRadius
	}
	if c.ViewMargin <= 0 {
		c.ViewMargin = protocol.ViewMargin
	}
	if c.Session.Schema == nil {
		c.Session = protocol.Session()
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c
}

// viewConfig is what each client's view sender is built with: datagrams of
// at most protocol.DatagramLimit, the session's framing counted against the
// budget.
func (c Config) viewConfig() view.Config {
	return view.Config{
		History: c.Session.History, Rate: c.Rate, TickRate: c.TickRate,
		PacketCap: protocol.DatagramLimit - session.MaxHeaderSize, Overhead: session.MaxHeaderSize,
	}
}

// MinRate returns the floor of Rate for c (with its defaults), in bytes per
// second: the session's framing, the packet header and the player's own
// entity at its largest, every tick (see view.MinRate). With the match's
// schema at 30 ticks a second it is 960.
func (c Config) MinRate() int {
	c = c.withDefaults()
	return view.MinRate(c.Session.Schema, c.viewConfig())
}

// Validate reports whether c (with its defaults) can run a match: a Rate
// below MinRate is refused with an error wrapping view.ErrRateBelowFloor
// that names the floor.
func (c Config) Validate() error {
	c = c.withDefaults()
	if err := c.viewConfig().Validate(c.Session.Schema); err != nil {
		return fmt.Errorf("snapshot budget: %w", err)
	}
	return nil
}
