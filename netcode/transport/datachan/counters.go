package datachan

import (
	"sync/atomic"

	"github.com/sightline-game/sightline/netcode/transport"
)

// SendCounters count what a connection sent and what Send dropped as
// congested. Safe for concurrent use.
type SendCounters struct {
	messages, bytes, congested atomic.Uint64
}

// Sent counts one message of n bytes handed to the network.
func (c *SendCounters) Sent(n int) {
	c.messages.Add(1)
	c.bytes.Add(uint64(n))
}

// Congested counts one message Send dropped for a full buffer.
func (c *SendCounters) Congested() { c.congested.Add(1) }

// Stats returns a connection's counters: these and the inbox's.
// ReceivedMessages counts messages taken off the network, including those
// later dropped from a full receive queue (QueueDropped).
func (c *SendCounters) Stats(in *Inbox) transport.Stats {
	received, receivedBytes, dropped := in.Counts()
	return transport.Stats{
		SentMessages:     c.messages.Load(),
		SentBytes:        c.bytes.Load(),
		ReceivedMessages: received,
		ReceivedBytes:    receivedBytes,
		Congested:        c.congested.Load(),
		QueueDropped:     dropped,
	}
}
