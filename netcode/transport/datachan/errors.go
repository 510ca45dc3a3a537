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
