// Package replica replicates records: small pieces of state that change
// rarely and must not be missed, such as a door's state, a player's name or
// score, or an item lying on the floor.
//
// # Why records travel apart from snapshots
//
// Snapshots carry what changes all the time: fixed-width quantized fields of
// the entities near a player, as deltas against a baseline the player
// acknowledged, under a per-tick byte budget. They are latest-wins and never
// retransmitted; a lost one is covered by the next delta. Rare state fits
// that poorly. A player's name or an item's description has no fixed width;
// a score or a door far away may matter to a player whom interest management
// keeps from seeing the entity; and everything in snapshot state is paid for
// again in every full snapshot and competes with movement for the budget.
//
// Records instead are sent once when they change and again only when the
// datagram was lost: each is resent until acknowledged, on its own timer,
// and none depends on a baseline or on another record. They ride their own
// unordered channel (transport.Replicas, MaxRetransmits 0), so the
// transport never holds a record back behind a lost one, and a record never
// waits behind snapshot traffic.
//
// # Model
//
// A [Record] is an id, a generation, a revision and a payload (at most
// [MaxPayload] bytes) or a deletion. The generation tells apart the
// successive things that used one id: a despawned item and the one spawned
// later in its slot are different records, never confused. The revision
// orders the states of one id; a [Sender] takes revisions from a single
// counter, so a newer state always has a higher revision, even across
// generations and after a deletion was forgotten.
//
// On the server, one [Sender] per client: [Sender.Publish] and
// [Sender.Delete] make a new revision, which replaces any older revision
// not yet acknowledged (only the newest is ever sent). [Sender.AppendDue]
// packs the records that are due (new revisions, and sent ones whose resend
// timer ran out) into a datagram of a given byte budget, skipping any that do
// not fit instead of stopping at them; call it until it returns 0.
// [Sender.HandleAck] clears records whose newest revision the client
// acknowledged. Each resend of a revision waits twice as long as the one
// before (up to MaxResendAfter), as TCP backs off its retransmissions. A
// revision still unacknowledged GiveUpAfter after its first send is given
// up and [Sender.Failing] turns true: the connection is failing and its
// owner disconnects it.
//
// On the client, one [Receiver]: [Receiver.Handle] applies each record that
// is newer than what it holds (a newer generation replaces an older one
// whatever the revisions; within a generation the higher revision wins) and
// returns the ack datagram to send back. It acknowledges duplicates and
// stale revisions too, so that the sender stops. Deletions are remembered as
// tombstones, so that a late copy of an older revision does not bring a
// deleted record back; their number is bounded ([ReceiverConfig]).
//
// # Wire format
//
// All numbers are unsigned LEB128 varints in shortest form; decoders reject
// any other form, so every valid datagram has exactly one encoding.
//
//	records datagram: 'R' (0x52), then one or more records:
//	  id        varint, < 2^32
//	  gen       varint, < 2^16
//	  rev       varint, < 2^32
//	  len       varint: 0 for a deletion, else payload length + 1 (<= MaxPayload+1)
//	  payload   len-1 bytes
//	ack datagram: 'A' (0x41), then one or more acks:
//	  id, gen, rev  varints as above
//
// A typical record costs 5 to 7 bytes besides its payload, an ack 4 to 6.
//
// # Memory and allocation
//
// A Sender holds one slot per id it has not forgotten; a Receiver at most
// MaxRecords live records and MaxTombstones tombstones, each with a payload
// buffer of at most MaxPayload bytes. Slots and their buffers are reused, so
// once the sets of ids and payload sizes have been seen, publishing,
// AppendDue, Handle and HandleAck allocate nothing. Decoders never allocate
// in proportion to a length read from the wire.
//
// Time is a [time.Duration] passed in by the caller (monotonic or
// simulated), so runs are deterministic. Nothing here is safe for concurrent
// use.
package replica
