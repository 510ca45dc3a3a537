package browser

import (
	"errors"

	"github.com/sightline-game/sightline/netcode/transport/datachan"
)

// Errors returned by [Dial] and the connection wrap these; test with
// errors.Is. All but ErrNoWebRTC are the same values package
// transport/webrtc returns.
var (
	// ErrNoWebRTC is returned by Dial when the page has no
	// RTCPeerConnection (WebRTC disabled or not supported).
	ErrNoWebRTC = errors.New("browser: this browser has no WebRTC (RTCPeerConnection)")

	// ErrSignalling: the signalling exchange failed (error status, not an
	// answer, an answer the browser refused).
	ErrSignalling = datachan.ErrSignalling

	// ErrPeerGone: the peer closed the connection or a channel, or the
	// connection failed or stayed disconnected too long.
	ErrPeerGone = datachan.ErrPeerGone

	// ErrEventsOverflow: the receive queue filled up with events.
	ErrEventsOverflow = datachan.ErrEventsOverflow

	// ErrUnreachable: the offer got no reply (nothing there, or no reply
	// in time).
	ErrUnreachable = datachan.ErrUnreachable

	// ErrICEFailed: the server answered but ICE found no working path.
	ErrICEFailed = datachan.ErrICEFailed

	// ErrChannelsNotOpen: ICE connected but the data channels did not open.
	ErrChannelsNotOpen = datachan.ErrChannelsNotOpen

	// ErrUnknownChannel: Send on a channel outside [0, transport.NumChannels).
	ErrUnknownChannel = datachan.ErrUnknownChannel
)
