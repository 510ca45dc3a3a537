// Package snapstream keeps a stream of snapshots in step between a server and
// one client over an unreliable channel: the sender encodes each tick against
// the newest snapshot the client acknowledged, the receiver decodes each
// packet onto the baseline it names.
//
// Nothing is retransmitted. A lost packet costs only size: the next delta is
// taken against an older acknowledged baseline and covers what the lost one
// held. The Sender keeps a ring of the last History+1 snapshots it sent; the
// Receiver keeps a ring of the same size of what it decoded. The Sender falls
// back to a full snapshot when no ack has arrived, when the acknowledged tick
// is more than History ticks old or has left its ring, or when the delta would
// not be smaller than the full snapshot. The Receiver ignores packets at or
// below its newest tick and drops, without changing anything, a delta whose
// baseline it does not hold.
//
// The wire format is a Format: package delta is the project's own; package
// refformat holds byte-aligned reference formats for comparison.
//
// A new connection is a new epoch: call Reset on both sides.
package snapstream
