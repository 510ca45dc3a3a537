package client

import (
	"log/slog"
	"time"

	"github.com/sightline-game/sightline/netcode/transport/datachan"
)

// ConnectConfig says how a player's connection reaches a match server
// (see Connect), the same on every platform.
type ConnectConfig struct {
	// Match names the match to join on a server hosting several; empty
	// lets the server choose.
	Match string
	// Watch joins the match as a spectator (see Config.Watch).
	Watch bool
	// Token is the player's join token, for a server that admits only
	// invited players (cmd/server -token-key); empty: none.
	Token string
	// Logger receives the connection's trouble (nil: slog.Default()).
	Logger *slog.Logger
	// RelayOnly sends every datagram through the TURN relay the server
	// hands out (GET /ice), for testing the relay: a server that hands out
	// none cannot then be reached.
	RelayOnly bool
	// OnStage, if set, hears each stage of the join as it is reached, in
	// order, with its time since Connect was called (Stages()): for a
	// connecting screen. It may run on any goroutine, one call at a time,
	// and must not block.
	OnStage func(Stage)
	// Prepared, in the browser build, names the page's function that
	// hands over the connection the page began while the game downloaded
	// (browser.Config.Prepared); the native build has none to take.
	Prepared string
	// ICETimeout, if above 0, bounds the wait for a working network path
	// once the server has answered; the join then fails with an error
	// wrapping ErrICEFailed. 0 leaves it to Connect's context.
	ICETimeout time.Duration
}

// Stage is one stage of a join reached: its name (Stages), what more
// there is to say (the network path tried or taken, as the network
// overlay names paths: host, srflx, prflx, relay), and when.
type Stage = datachan.Stage

// The stages of a join, in order. Connect reports those up to
// StageChannelsOpen; the game reports StageFirstSnapshot when the first
// snapshot has been decoded.
const (
	StageICEServers    = datachan.StageICEServers
	StageOfferSent     = datachan.StageOfferSent
	StageAnswer        = datachan.StageAnswer
	StageChecking      = datachan.StageChecking
	StageConnected     = datachan.StageConnected
	StageChannelsOpen  = datachan.StageChannelsOpen
	StageFirstSnapshot = "first snapshot"
)

// Stages lists a join's stages in order.
func Stages() []string { return append(datachan.Stages(), StageFirstSnapshot) }
