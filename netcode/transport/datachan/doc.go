// Package datachan holds what the two WebRTC transports share, in plain Go
// with no WebRTC stack behind it: the limits of a connection ([Config]), its
// bounded receive queue ([Inbox] over [Queue]), how it ends, once and for
// one cause ([Lifecycle], which holds the inbox), the signalling exchange's
// JSON body, which names the application's protocol version ([SDPMessage],
// [OfferBody], [RetryAfter])
// and the sentinel errors both report.
//
// Package transport/webrtc builds the native client and the server on
// pion/webrtc; package transport/browser builds the browser client on the
// browser's own RTCPeerConnection, so that the browser build links no pion.
// Both speak docs/PROTOCOL.md sections 1 and 2 through this package.
package datachan
