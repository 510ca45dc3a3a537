package webrtc

import (
	"errors"

	"github.com/sightline-game/sightline/netcode/transport/datachan"
)

// Sentinel errors of the package. Errors returned by [Dial], [NewServer] and
// [Server.Accept] wrap them; test with errors.Is.
var (
	// ErrUnknownChannel is returned by Send for a channel outside
	// [0, transport.NumChannels).
	ErrUnknownChannel = datachan.ErrUnknownChannel

	// ErrSignalling is returned by Dial when the signalling exchange fails:
	// the server answered with an error status (the error text includes it
	// and the server's short reason, e.g. "503 server full") or with
	// something that is not an answer.
	ErrSignalling = datachan.ErrSignalling

	// ErrNoVersion is returned by NewServer for a ServerConfig without a
	// Version.
	ErrNoVersion = errors.New("webrtc: the server's protocol version is not set")

	// ErrServerClosed is returned by Accept after Close.
	ErrServerClosed = errors.New("webrtc: server closed")

	// ErrConnectTimeout ends a server session whose peer did not open all
	// four channels within ServerConfig.ConnectTimeout.
	ErrConnectTimeout = errors.New("webrtc: peer did not open its channels in time")

	// ErrBadChannel ends a server session whose peer opened a channel with
	// an unknown label, the wrong reliability or ordering, or twice.
	ErrBadChannel = errors.New("webrtc: peer opened an invalid channel")

	// ErrEventsOverflow ends a connection whose receive queue filled up with
	// events: they are never dropped, and a peer that never reads is broken.
	ErrEventsOverflow = datachan.ErrEventsOverflow

	// ErrNoRoute, wrapped by a ServerConfig.Route error, refuses an offer
	// that names a route (a match) the server does not have: 404.
	ErrNoRoute = errors.New("webrtc: no such route")

	// ErrRouteFull, wrapped by a ServerConfig.Route error, refuses an offer
	// whose route (match) has no room: 503 "server full".
	ErrRouteFull = errors.New("webrtc: route full")

	// ErrUnauthorized, wrapped by a ServerConfig.Admit error, refuses an
	// offer that carries no credentials (no join token): 401.
	ErrUnauthorized = errors.New("webrtc: unauthorized")

	// ErrForbidden, wrapped by a ServerConfig.Admit error, refuses an offer
	// whose credentials do not admit it (a join token expired, used, for
	// another server): 403.
	ErrForbidden = errors.New("webrtc: forbidden")

	// ErrPeerGone ends a connection whose peer closed it, whose channels
	// closed, or whose ICE/DTLS transport failed or stayed disconnected
	// longer than ConnConfig.DisconnectTimeout.
	ErrPeerGone = datachan.ErrPeerGone

	// ErrUnreachable is wrapped by Dial's error when the offer got no
	// reply: nothing listens at the address, or no reply came in time.
	ErrUnreachable = datachan.ErrUnreachable

	// ErrICEFailed is wrapped by Dial's error when the server answered but
	// ICE found no working path (UDP blocked, an address that cannot be
	// reached from here).
	ErrICEFailed = datachan.ErrICEFailed

	// ErrChannelsNotOpen is wrapped by Dial's error when ICE connected but
	// the data channels did not open.
	ErrChannelsNotOpen = datachan.ErrChannelsNotOpen
)
