package datachan

import "errors"

// Sentinel errors both WebRTC transports wrap; test with errors.Is.
var (
	// ErrUnknownChannel is returned by Send for a channel outside
	// [0, transport.NumChannels).
	ErrUnknownChannel = errors.New("webrtc: unknown channel")

	// ErrSignalling is returned by Dial when the signalling exchange fails:
	// the server answered with an error status (the error text includes it
	// and the server's short reason, e.g. "503 server full") or with
	// something that is not an answer.
	ErrSignalling = errors.New("webrtc: signalling failed")

	// ErrEventsOverflow ends a connection whose receive queue filled up with
	// events: they are never dropped, and a peer that never reads is broken.
	ErrEventsOverflow = errors.New("webrtc: events receive queue overflow")

	// ErrPeerGone ends a connection whose peer closed it, whose channels
	// closed, or whose ICE/DTLS transport failed or stayed disconnected
	// longer than Config.DisconnectTimeout.
	ErrPeerGone = errors.New("webrtc: peer gone")
)

// Errors a dial's failure wraps to say where it failed; test with
// errors.Is.
var (
	// ErrUnreachable: the offer got no reply: the signalling address
	// cannot be reached (no server there, a wrong address or port, a
	// network in the way) or did not answer in time.
	ErrUnreachable = errors.New("webrtc: server unreachable")

	// ErrICEFailed: the server answered, but ICE found no path that works
	// (UDP blocked, or the server offers an address that cannot be
	// reached from here).
	ErrICEFailed = errors.New("webrtc: ICE failed")

	// ErrChannelsNotOpen: ICE connected, but the data channels (DTLS,
	// SCTP) did not open.
	ErrChannelsNotOpen = errors.New("webrtc: data channels did not open")
)
