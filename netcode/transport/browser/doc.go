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
// for ICE gathering to complete (no trickle; with no ICE servers, only
// until the host candidates have been quiet for 100 ms: Chromium calls
// gathering complete hundreds of ms after its last one), posts {"type": "offer",
// "sdp": ..., "version": [Config.Version]} to the server's
// signalling URL, applies the answer and returns when all four channels are
// open. Refused with 429 or 503 and a Retry-After, it waits that long and
// posts again, while its context allows ([Config.OnRetryLater] hears of
// each wait).
//
// # Prepared by the page
//
// A page can begin the connection while the game itself still downloads
// and compiles: with [Config.Prepared] set to the name of a function on
// the page's global object, Dial calls it first. The function returns,
// the first time only, a promise of an object that holds
//
//   - iceURL and token: the ICE servers URL the page asked (absolute) and
//     the join token it sent ("" for none);
//   - iceText: the body of that answer ("" if none came, or not 200);
//   - pc: an RTCPeerConnection the page made with the servers of that
//     list and iceTransportPolicy "relay" when asked, whose local
//     description is already set to its offer;
//   - channels: its four data channels, in [transport.Channel] order, with
//     the labels and options above;
//   - candidates and candidateMs: how many local candidates the page saw
//     gathered (icecandidate events), and when the last came, in ms of the
//     page's clock (performance.now).
//
// Dial takes it only when it is exactly what Dial would make: the same
// URL and token, a list [iceservers.ParseList] accepts, the same servers
// in the peer connection's configuration, the same policy, the channels'
// labels and options, and a peer connection still waiting for its
// answer. Anything else, or a promise that fails, is closed and Dial
// starts from the beginning; the page only ever saves time. Waiting for
// gathering, the offer's post and everything after it are Dial's as
// usual. Dial sets the object's taken to true when it takes it, or its
// refused to why not, for the page to tell.
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
