// Package browser implements [transport.Conn] for the browser client over
// the browser's own RTCPeerConnection and RTCDataChannel, through
// syscall/js: no WebRTC stack of its own (pion stays with the native client
// and the server, package transport/webrtc) and no net/http (signalling is
// one call of the page's fetch). It builds only for GOOS=js; this file and
// the configuration build everywhere so the documentation does.
//
// # Protocol
//
// [Dial] speaks docs/PROTOCOL.md sections 1 and 2 as the native client
// does: it creates the four channels with the labels of
// [transport.Channel.String] ("snapshots", "inputs" and "replicas"
// unordered with maxRetransmits 0, "events" ordered and reliable), waits
// for ICE gathering to complete (no trickle), posts {"type": "offer",
// "sdp": ..., "version": [Config.Version]} to the server's
// signalling URL, applies the answer and returns when all four channels are
// open. Refused with 429 or 503 and a Retry-After, it waits that long and
// posts again, while its context allows ([Config.OnRetryLater] hears of
// each wait).
//
// # Sending and receiving
//
// Send never blocks: it copies the message into a JavaScript buffer kept
// per channel and calls the data channel's send. When the channel's
// bufferedAmount would go over its limit ([datachan.Config]), the message
// is dropped and Send returns [transport.ErrCongested].
//
// Each channel has binaryType "arraybuffer" and an onmessage handler that
// runs synchronously, in the browser's order of events, and copies the
// message (js.CopyBytesToGo) into the bounded receive queue
// ([datachan.Inbox]) that Receive drains in arrival order; no goroutine is
// started per message, so nothing reorders the events channel. When the
// queue is full the oldest unreliable message is dropped; events are never
// dropped, and a queue full of them ends the connection with
// [ErrEventsOverflow]. A message over [transport.MaxMessageSize] ends the
// connection.
//
// # Lifetime
//
// Done is closed when Close is called, when a channel closes, when the
// RTCPeerConnection fails or closes, or when it stays "disconnected" longer
// than Config.DisconnectTimeout. Close closes the channels and the
// RTCPeerConnection and releases every JavaScript callback.
package browser
