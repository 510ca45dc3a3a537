// Package webrtc implements [transport.Conn] over WebRTC data channels with
// pion/webrtc v4: a client ([Dial]) that builds for native platforms and for
// js/wasm (where pion wraps the browser's RTCPeerConnection), and a server
// ([Server], native only) that many clients reach over one shared UDP port.
// The browser build does not use this package's js client: it dials with
// package transport/browser, which binds the browser's RTCPeerConnection
// directly and links neither pion nor net/http (8 MB less in game.wasm).
// What both share (limits, receive queue, signalling body and retries,
// errors) is in package transport/datachan.
//
// # Channels
//
// Every connection carries exactly four data channels, labelled with
// [transport.Channel.String]: "snapshots", "inputs" and "replicas" are
// unordered with MaxRetransmits 0 (a lost message is never resent), and
// "events" is reliable and ordered. The client creates them; the server
// checks each one and rejects (closes, logs, never returns from Accept) a
// peer whose channels are missing, unknown, duplicated or configured
// otherwise.
//
// # Signalling
//
// Signalling is one HTTP POST, without trickle ICE: the client gathers all
// its candidates, posts {"type":"offer","sdp":...} to the server's
// [Server.ServeHTTP] and gets {"type":"answer","sdp":...} back once the
// server has gathered its own. Errors come back as short text bodies with
// 400 (not an offer, malformed SDP), 405, 413, 429 (too many offers) or 503
// (server full, too many connecting).
//
// The server guards its signalling against abuse (see [ServerConfig]): a
// token bucket per client (by default per remote IP, trusting no header)
// limits offers (429 with Retry-After); MaxConnecting caps the sessions
// still negotiating apart from MaxSessions (503 with Retry-After); a
// session that has not opened its channels within ConnectTimeout is
// closed; the offer body is capped (413). [Server.Stats] counts offers,
// answers, rejections by reason, timeouts and live sessions.
//
// One server can serve several groups of sessions (the matches of a server
// hosting several): ServerConfig.Route names each offer's route from its
// request (for example ?match=ID), refusing an unknown one (404) or a full
// one (503 server full), and [Server.AcceptRoute] hands out only that
// route's connections, so that each match accepts apart.
//
// # Sending and receiving
//
// Send never blocks and never lets a channel's send buffer grow without
// bound: when the data channel's BufferedAmount would exceed
// ConnConfig.SendBufferLimit it drops the message and returns
// [transport.ErrCongested]. Incoming messages are copied into reusable
// buffers of a bounded receive queue that [transport.Conn.Receive] drains in
// arrival order. When the queue is full the oldest unreliable message is
// dropped (Stats.QueueDropped); events are never dropped: if they alone fill
// the queue the connection ends with [ErrEventsOverflow].
//
// On native platforms the channels are detached (pion's DetachDataChannels)
// and each has one reading goroutine that reads straight into a reusable
// buffer, so a received message costs no allocation in this package or in
// pion's read path. In the browser the package installs its own synchronous
// onmessage handlers (binaryType "arraybuffer"), because pion's OnMessage
// runs each message in a new goroutine and could reorder the events
// channel.
//
// # Reading in rounds
//
// With ServerConfig.ReadInterval the server reads its shared UDP socket in
// rounds: everything queued at once (recvmmsg on Linux), passed up pion's
// stack as a burst, instead of waking pion's chain of goroutines (UDP mux,
// ICE candidate, DTLS, SCTP, the channel's reader) for every datagram. A
// game that steps at fixed ticks calls [Server.ReadRound] at each tick,
// before the step: it reads a round and yields until the round has passed
// the stack, so that every input that came before the tick is in it, and
// the process wakes once a tick to read. On Linux the socket is taken out
// of the Go runtime's network poller, which would otherwise wake a thread
// for every datagram that comes between rounds only to find nobody waiting
// for it. Sessions that are negotiating are read without delay. With one
// thread per match (cmd/server's -procs) it halves the server's CPU per
// player; see cmd/server's -read-interval for what was measured.
//
// # Lifetime
//
// Done is closed when Close is called, when the peer closes the connection
// or one of its channels, when the PeerConnection fails, or when it stays
// disconnected longer than ConnConfig.DisconnectTimeout. Close is
// idempotent, closes the PeerConnection and waits until this package's and
// pion's goroutines for it have ended.
package webrtc
