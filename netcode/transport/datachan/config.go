package datachan

import (
	"time"

	"github.com/sightline-game/sightline/netcode/transport"
)

// Defaults used for zero fields of [Config].
const (
	DefaultSendBufferLimit = 256 << 10
	// DefaultUnreliableBufferLimit holds a few datagrams: a snapshot or an
	// input that has to wait behind others is stale by the time it leaves.
	DefaultUnreliableBufferLimit = 8 << 10
	DefaultReceiveQueueLen       = 1024
	DefaultReceiveQueueBytes     = 1 << 20
	DefaultDisconnectTimeout     = 10 * time.Second
	// DefaultGatherTimeout is how long a client waits for its ICE
	// candidates before it makes its offer with those it has: a STUN
	// answer is one round trip, a TURN allocation two (three over TLS).
	DefaultGatherTimeout = 3 * time.Second
)

// Config holds the settings of a connection, shared by both ends and by
// both transports. Zero fields take the defaults above.
type Config struct {
	// SendBufferLimit is the most bytes a channel's send buffer
	// (BufferedAmount) may hold: Send drops a message that would take it
	// beyond and returns transport.ErrCongested. A message is always
	// accepted when the buffer is empty, whatever its size.
	SendBufferLimit int

	// UnreliableBufferLimit is the same limit for the unreliable channels
	// (snapshots, inputs, replicas). When the path stalls, SCTP queues even
	// messages it will never retransmit; a small limit turns a stall into
	// skipped ticks instead of a backlog of stale ones delivered late.
	UnreliableBufferLimit int

	// ReceiveQueueLen and ReceiveQueueBytes bound the messages (all
	// channels together) waiting for Receive. ReceiveQueueBytes is raised
	// to at least transport.MaxMessageSize.
	ReceiveQueueLen   int
	ReceiveQueueBytes int

	// DisconnectTimeout is how long the PeerConnection may stay in the
	// "disconnected" state before the connection ends.
	DisconnectTimeout time.Duration
}

// WithDefaults returns c with its zero fields set to the defaults.
func (c Config) WithDefaults() Config {
	if c.SendBufferLimit <= 0 {
		c.SendBufferLimit = DefaultSendBufferLimit
	}
	if c.UnreliableBufferLimit <= 0 {
		c.UnreliableBufferLimit = DefaultUnreliableBufferLimit
	}
	if c.ReceiveQueueLen <= 0 {
		c.ReceiveQueueLen = DefaultReceiveQueueLen
	}
	if c.ReceiveQueueBytes <= 0 {
		c.ReceiveQueueBytes = DefaultReceiveQueueBytes
	}
	c.ReceiveQueueBytes = max(c.ReceiveQueueBytes, transport.MaxMessageSize)
	if c.DisconnectTimeout <= 0 {
		c.DisconnectTimeout = DefaultDisconnectTimeout
	}
	return c
}

// BufferLimit returns the send buffer limit of channel ch.
func (c Config) BufferLimit(ch transport.Channel) int {
	if ch.Reliable() {
		return c.SendBufferLimit
	}
	return c.UnreliableBufferLimit
}

// Congested reports whether a message of n bytes must be dropped from
// channel ch whose send buffer holds buffered bytes: a message is always
// accepted into an empty buffer, whatever its size.
func (c Config) Congested(ch transport.Channel, buffered uint64, n int) bool {
	return buffered > 0 && buffered+uint64(n) > uint64(c.BufferLimit(ch))
}
