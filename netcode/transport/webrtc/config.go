package webrtc

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/pion/webrtc/v4"
	"github.com/sightline-game/sightline/netcode/transport"
	"github.com/sightline-game/sightline/netcode/transport/datachan"
)

// Defaults used for zero fields of [ConnConfig].
const (
	DefaultSendBufferLimit       = datachan.DefaultSendBufferLimit
	DefaultUnreliableBufferLimit = datachan.DefaultUnreliableBufferLimit
	DefaultReceiveQueueLen       = datachan.DefaultReceiveQueueLen
	DefaultReceiveQueueBytes     = datachan.DefaultReceiveQueueBytes
	DefaultDisconnectTimeout     = datachan.DefaultDisconnectTimeout
	// SCTPRTOMax caps SCTP's retransmission timeout on native peers.
	SCTPRTOMax = time.Second
	// DefaultGatherTimeout is how long a client waits for its candidates:
	// a STUN answer is one round trip, a TURN allocation two (three over
	// TLS), each well under a second on the internet.
	DefaultGatherTimeout = datachan.DefaultGatherTimeout
)

// ConnConfig holds the settings of a connection, shared by both ends (and
// by the browser's transport, package transport/browser). Zero fields take
// the defaults above.
type ConnConfig = datachan.Config

// DialConfig configures [Dial].
type DialConfig struct {
	ConnConfig

	// Version is the version of the application's protocol the offer names
	// (numbered from 1); a server that speaks another refuses it with 400.
	// 0 names none, which a server takes as version 1.
	Version int

	// Token, if set, is a credential (a join token) the offer carries as
	// "Authorization: Bearer Token", for a server that admits only invited
	// players (ServerConfig.Admit).
	Token string

	// HTTPClient posts the offer; nil means http.DefaultClient.
	HTTPClient *http.Client

	// Logger receives the connection's log records (and, natively, pion's
	// own errors at Info and warnings at Debug); nil means slog.Default().
	Logger *slog.Logger

	// ICEServers are STUN/TURN servers, if any; none are needed to reach a
	// server with a public address or on the same host or LAN.
	ICEServers []webrtc.ICEServer

	// ICEServersURL, if set, is asked for more ICE servers before the
	// offer is made (GET, with Token as a join token): a game server hands
	// out its STUN servers and TURN relays there, with credentials that
	// expire and reach only that server (see package iceservers). A server that has none,
	// or refuses, leaves the client with ICEServers alone: the offer then
	// meets the refusal.
	ICEServersURL string

	// GatherTimeout bounds the wait for ICE gathering before the offer is
	// posted with the candidates found so far (0: DefaultGatherTimeout). A
	// STUN or TURN server that cannot be reached (a network without UDP
	// loses every datagram to a turn: URL, and TURN retries for 8 s) would
	// otherwise hold the offer until it gives up.
	GatherTimeout time.Duration

	// RelayOnly gathers only relay candidates (ICETransportPolicy
	// "relay"): every datagram then goes through one of ICEServers' TURN
	// relays. For testing a relay, and for players who would rather not
	// show the server their address.
	RelayOnly bool

	// IncludeLoopback makes a native client offer loopback candidates, which
	// pion leaves out by default; needed to reach a server on 127.0.0.1.
	// Ignored in the browser.
	IncludeLoopback bool

	// SettingEngine, if set, adjusts the native client's pion SettingEngine
	// after this package's settings (for example SetNet for a vnet test
	// network). It must not undo DetachDataChannels. Ignored in the browser.
	SettingEngine func(*webrtc.SettingEngine)

	// ICETimeout, if above 0, bounds the wait for ICE to find a working
	// path once the server has answered: the dial then fails with
	// [ErrICEFailed]. 0 leaves it to ctx (and to ICE's own timeouts).
	ICETimeout time.Duration

	// OnStage, if set, hears each stage of the dial as it is reached
	// (datachan.Stages(), in order, each once), with its time since Dial
	// was called: for a connecting screen. It runs on Dial's goroutine or
	// on the WebRTC stack's, one call at a time, and must not block.
	OnStage func(Stage)

	// OnRetryLater, if set, is called each time the server refuses the offer
	// for now (429 or 503 with Retry-After) and Dial is about to wait before
	// asking again, with the wait and the refusal: how long a connection
	// queued is not how long its handshake took.
	OnRetryLater func(wait time.Duration, refusal error)
}

// channelInit returns the DataChannelInit of a channel: unordered with
// MaxRetransmits 0, or reliable and ordered for events.
func channelInit(ch transport.Channel) *webrtc.DataChannelInit {
	ordered := ch.Reliable()
	init := &webrtc.DataChannelInit{Ordered: &ordered}
	if !ch.Reliable() {
		zero := uint16(0)
		init.MaxRetransmits = &zero
	}
	return init
}

// channelByLabel maps a data channel label to its channel.
func channelByLabel(label string) (transport.Channel, bool) {
	for ch := range transport.Channel(transport.NumChannels) {
		if ch.String() == label {
			return ch, true
		}
	}
	return 0, false
}

// Stage is a stage of a dial reached (datachan.Stage), as DialConfig.OnStage
// hears it.
type Stage = datachan.Stage

// The stages of a dial, in order (see datachan).
const (
	StageICEServers   = datachan.StageICEServers
	StageOfferSent    = datachan.StageOfferSent
	StageAnswer       = datachan.StageAnswer
	StageChecking     = datachan.StageChecking
	StageConnected    = datachan.StageConnected
	StageChannelsOpen = datachan.StageChannelsOpen
)
