// Package transport names the channels a match uses and the connection
// interface every transport provides: WebRTC data channels for real play
// (package transport/webrtc) and an in-memory pair driven by the link
// simulator for deterministic tests (package transport/memory).
//
// Each kind of traffic has a channel of its own, so that none waits behind
// another: snapshots and inputs are unordered and never retransmitted (a newer
// one always follows), events are reliable and ordered, and replica records
// travel apart from both (they resend themselves until acknowledged).
package transport

import "errors"

// Channel identifies one stream of a connection.
type Channel uint8

// The channels of a match connection.
const (
	// Snapshots carries state server->client: unordered, MaxRetransmits 0.
	Snapshots Channel = iota
	// Inputs carries inputs and acks client->server: unordered, MaxRetransmits 0.
	Inputs
	// Events carries one-shot happenings, both ways: reliable and ordered.
	Events
	// Replicas carries acknowledged records and their acks: unordered,
	// MaxRetransmits 0 (records resend themselves until acknowledged).
	Replicas

	// NumChannels is the number of channels.
	NumChannels = 4
)

// String returns the channel's label, as used on the wire by WebRTC.
func (c Channel) String() string {
	switch c {
	case Snapshots:
		return "snapshots"
	case Inputs:
		return "inputs"
	case Events:
		return "events"
	case Replicas:
		return "replicas"
	}
	return "unknown"
}

// Reliable reports whether the channel retransmits and keeps order.
func (c Channel) Reliable() bool { return c == Events }

var (
	// ErrCongested is returned by Send when the channel's outgoing buffer is
	// over its limit: the message was dropped. Senders of snapshots simply
	// skip the tick; a slow peer gets fewer snapshots, not a growing queue.
	ErrCongested = errors.New("transport: channel congested, message dropped")
	// ErrClosed is returned when the connection is closed.
	ErrClosed = errors.New("transport: connection closed")
	// ErrTooLarge is returned for a message larger than MaxMessageSize.
	ErrTooLarge = errors.New("transport: message too large")
)

// MaxMessageSize is the largest message any channel carries. Snapshot
// packets are kept under 1200 bytes to avoid IP fragmentation; events and
// records may be larger but never beyond this.
const MaxMessageSize = 16 << 10

// Conn is one connection, seen from either end. Methods are safe for
// concurrent use.
type Conn interface {
	// Send queues p on channel c without blocking. The transport copies p.
	// It returns ErrCongested when the channel's buffer is over its limit,
	// ErrClosed after Close or a failure, ErrTooLarge for oversized p.
	Send(c Channel, p []byte) error
	// Receive calls fn for every message that arrived since the last call,
	// in arrival order, and returns how many. p is valid only during fn.
	// Messages that arrive while nobody calls Receive wait in a bounded
	// queue; when it is full the oldest unreliable ones are dropped.
	Receive(fn func(c Channel, p []byte)) int
	// Close ends the connection. It is safe to call more than once.
	Close() error
	// Done is closed when the connection has ended, by Close or failure.
	Done() <-chan struct{}
	// Stats returns counters since the connection opened.
	Stats() Stats
}

// Stats counts a connection's traffic.
type Stats struct {
	SentMessages, SentBytes         uint64
	ReceivedMessages, ReceivedBytes uint64
	Congested                       uint64 // messages Send dropped for a full buffer
	QueueDropped                    uint64 // received messages dropped for a full receive queue

	// Path names the network path the connection took, once known: for
	// WebRTC the selected ICE candidate pair, named by its farther-reaching
	// candidate: "host", "prflx", "srflx", "relay-udp", "relay-tcp" or
	// "relay-tls" (a relay seen only from the far side, whose transport
	// this end cannot know, is "relay"); PathMemory for the in-memory
	// transport. Empty while unknown.
	Path string
}

// PathMemory is the Path of an in-memory connection (package memory).
const PathMemory = "memory"
