// Package memory provides an in-memory [transport.Conn] pair for
// deterministic tests of netcode: [NewPair] returns a server end and a client
// end joined by two one-direction links of the seeded link simulator
// (package linksim), one per direction.
//
// # Channels
//
// The unreliable channels (Snapshots, Inputs, Replicas) of one direction share
// that direction's simulated link, so a burst of loss hits all of them, as it
// would on a real path. The Events channel is reliable and ordered: each
// event arrives exactly once, in order, after the link's Latency (jitter,
// loss, reordering and duplication do not apply to it), as a retransmitting
// stream would deliver it once the path has settled.
//
// # Time
//
// Nothing here reads the wall clock, sleeps or starts a goroutine. Time is
// simulated and comes from [Config.Now], supplied by the test: [Conn.Send]
// stamps a message with Now() and [Conn.Receive] delivers whatever is due at
// Now(), in arrival order. [Conn.NextArrival] tells an event-driven harness
// when the next message is due. The same seed, configuration and sequence of
// calls give the same run, bit for bit.
//
// # Limits
//
// Each channel of each direction may have at most [Config.MaxInFlightBytes]
// bytes sent but not yet received; beyond it Send returns
// [transport.ErrCongested] and counts it in Stats.Congested, like a real
// transport whose send buffer is full. The simulated link itself may also drop
// packets silently when more than its MaxQueue packets are in flight (see
// linksim.Config); those count as lost on the link, not in Stats.
//
// Steady-state Send and Receive allocate nothing: payload buffers are reused
// by the links, the event queues and the receive batch.
package memory
