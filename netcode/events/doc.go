// Package events carries one-shot happenings (a hit, a kill, a player
// joining or leaving, a chat line, the end of a round) as a numbered,
// ordered stream that delivers each event exactly once.
//
// # Why events are not state
//
// Snapshots carry state, and a receiver learns what changed by comparing two
// states. A happening can leave no trace in that comparison: a player hit
// for 10 and healed for 10 between two snapshots has the same health in
// both, and the client would never flash the hit. Two kills in one tick look
// like one changed score. State is latest-wins and may skip; an event must
// arrive, once, in its order. So events never ride in snapshot state: they
// go on the reliable ordered channel (transport.Events), apart from the
// unordered, unretransmitted snapshot and input channels, and apart from
// replica records, whose changes are latest-wins too.
//
// # Outbox and Inbox
//
// An [Outbox] (one per connection, on each side that sends events) gives
// each pushed [Event] the next sequence number and frames queued events into
// datagrams with [Outbox.AppendNext]. It never resends: the channel does.
// Its queue is bounded ([DefaultMaxQueued]); [ErrQueueFull] means the peer
// has stopped reading, and its owner disconnects it.
//
// An [Inbox] delivers events in sequence order, exactly once. The channel is
// reliable and ordered, but the receiving side may still see its messages out
// of order: in the browser, pion hands each message to a new goroutine. So
// the Inbox holds events that arrive early in a bounded reorder window and
// drops events it has already delivered. An event beyond the window means a
// gap that will not be filled: [ErrReorderWindow], the connection is broken.
//
// # Bodies and chat
//
// An Event is a [Kind], the tick it happened on, and a body. Each kind this
// package defines has a small typed body ([Hit], [Kill], [Join], [Leave],
// [Chat], [RoundOver]) with an AppendX encoder and a ParseX decoder; other
// kinds (7 to 255) are carried unchecked for a game's own use. Chat text
// comes from players: servers pass every line through [CleanChat], which
// removes control and bidirectional-override characters, repairs invalid
// UTF-8 and bounds the length.
//
// # Wire format
//
// Numbers are unsigned LEB128 varints in shortest form; decoders reject any
// other form, so a valid datagram has exactly one encoding.
//
//	datagram: 'E' (0x45), first sequence number (varint, >= 1), then one or
//	more events, numbered first, first+1, ...:
//	  kind      1 byte, not 0
//	  tick      varint, < 2^32
//	  length    varint, <= MaxBody
//	  body      length bytes, well formed for its kind if the kind is known
//
// # Memory and allocation
//
// The Outbox holds at most MaxQueued events and the Inbox at most its window
// of early events, each with a reused body buffer of at most MaxBody bytes.
// Once warmed up, Push, AppendNext and Handle allocate nothing, and neither
// do the decoders, whatever lengths a datagram claims. Nothing here is safe
// for concurrent use.
package events
