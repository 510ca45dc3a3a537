package browser

import (
	"log/slog"
	"time"

	"github.com/sightline-game/sightline/netcode/transport/datachan"
)

// Config configures [Dial].
type Config struct {
	// Config holds the connection's limits (send buffers, receive queue,
	// disconnect timeout); zero fields take datachan's defaults.
	datachan.Config

	// Version is the version of the application's protocol the offer names
	// (numbered from 1); a server that speaks another refuses it with 400.
	// 0 names none, which a server takes as version 1.
	Version int

	// Token, if set, is a credential (a join token) the offer carries as
	// "Authorization: Bearer Token", for a server that admits only invited
	// players (ServerConfig.Admit).
	Token string

	// Logger receives the connection's log records; nil means
	// slog.Default().
	Logger *slog.Logger

	// ICEServers are STUN/TURN servers, if any; none are needed to reach a
	// server with a public address or on the same host or LAN.
	ICEServers []ICEServer

	// ICEServersURL, if set, is asked for more ICE servers before the
	// offer is made (GET, with Token): a game server hands out its STUN
	// servers and TURN relays there, with credentials that expire in
	// minutes (package iceservers). A server that has none, or refuses,
	// leaves the client with ICEServers alone.
	ICEServersURL string

	// GatherTimeout bounds the wait for ICE gathering before the offer is
	// posted with the candidates found so far (0:
	// datachan.DefaultGatherTimeout).
	GatherTimeout time.Duration

	// RelayOnly gathers only relay candidates (iceTransportPolicy
	// "relay"): every datagram goes through a TURN relay.
	RelayOnly bool

	// ICETimeout, if above 0, bounds the wait for ICE to find a working
	// path once the server has answered: the dial then fails with
	// [ErrICEFailed]. 0 leaves it to ctx (and to the browser).
	ICETimeout time.Duration

	// Prepared, if set, names a function of the page's global object that
	// hands over, once, a connection the page began before the game
	// started (see the package doc, Prepared by the page): Dial takes it
	// when it is exactly what Dial would have made, and goes on from its
	// offer. A page that has none, or one Dial does not take, costs
	// nothing: Dial then starts from the beginning.
	Prepared string

	// OnStage, if set, hears each stage of the dial as it is reached
	// (datachan.Stages(), in order, each once), with its time since Dial
	// was called: for a connecting screen. It runs on Dial's goroutine or
	// another, one call at a time, and must not block.
	OnStage func(datachan.Stage)

	// OnRetryLater, if set, is called each time the server refuses the offer
	// for now (429 or 503 with Retry-After) and Dial is about to wait before
	// asking again, with the wait and the refusal.
	OnRetryLater func(wait time.Duration, refusal error)
}

// ICEServer is one entry of the RTCPeerConnection's iceServers.
type ICEServer struct {
	URLs                 []string
	Username, Credential string
}
