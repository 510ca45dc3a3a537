// Package events carries one-shot happenings (in a game: a hit, a kill, a
// player joining, a chat line, the end of a round) as a numbered, ordered
// stream that delivers each event exactly once. It frames, orders and
// acknowledges events without interpreting them: what kinds there are and
// how their bodies are encoded is the game's business.
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
// # Kinds and bodies
//
// An Event is a [Kind], the tick it happened on, and a body of at most
// [MaxBody] bytes. The game assigns the kinds (1 to 255; 0 is never valid)
// and encodes the bodies. It gives both ends a [Validator] ([OutboxConfig]
// and [InboxConfig]) that checks the body of each kind it defines: a pushed
// event it refuses is not queued, and a received datagram holding one is
// rejected as a whole, so every event delivered is one the game can decode.
// Without a Validator any body is carried.
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
//	  body      length bytes, accepted by the game's Validator
//
// # Memory and allocation
//
// The Outbox holds at most MaxQueued events and the Inbox at most its window
// of early events, each with a reused body buffer of at most MaxBody bytes.
// Once warmed up, Push, AppendNext and Handle allocate nothing, and neither
// do the decoders, whatever lengths a datagram claims, as long as the
// Validator allocates nothing for a good body. Nothing here is safe
// for concurrent use.
package events
