// Package delta is the project's snapshot wire format: quantized, bit-packed
// snapshots, either whole or as a delta against a baseline the receiver is
// known to hold. A delta codes each changed value as its difference from a
// prediction, with prefix codes trained on the game's traffic.
//
// # The pieces
//
// A schema's Tables (NewTables) are its prefix codes laid out for coding,
// per field, per field mask and per context, with its predictor and
// spawner: built once, never changed, shared by any number of encoders and
// decoders on any goroutines. An Encoder (NewEncoder) writes packets with
// them: per delta it lists what changed (comparing the snapshots, or from
// the caller's snapshot.Changes), plans the packet's coding, and writes
// the sections of the layout below in order, with scratch of its own. A
// Decoder (NewDecoder) reads them back, with scratch of its own. A Codec pairs an encoder and a decoder of one
// Tables: the snapstream.Format a sender or receiver takes. Training the
// codes, offline, is package train's, which counts the symbols an encoder
// would write (Encoder.Symbols).
//
// The files follow the packet: tables.go the Tables; encode.go and
// decode.go the two ends of a delta; set.go the removed and changed sets;
// full.go entity ids and full snapshots; spawn.go new entities coded
// against guesses; sizes.go where an encoder's bits went; symbols.go what
// it codes, for training.
//
// # Packet layout
//
// Every packet starts with one bit: 0 for a full snapshot, 1 for a delta.
// Bits are packed least significant first (package bitpack); "gamma(k)" below
// is an Exp-Golomb code of order k, "Rice(k)" a Rice code of parameter k
// (v>>k zero bits, a one bit, the low k bits of v), both short for small
// numbers.
//
// A full snapshot is
//
//	tick (32 bits) | count gamma(4) | if count > 0: slot-gap order k (3 bits)
//	per entity: slot gap gamma(k) | generation | every field at its full width
//
// A delta names its tick by its low 16 bits (the receiver holds a baseline
// at most a few ticks older, so the rest is implied) and its baseline by age:
//
//	tick low 16 bits | age-1 gamma(1)
//	removed:  a set of positions in the baseline
//	new:      count gamma(0) | if count > 0: slot-gap order k (3 bits), then
//	          per new entity: slot gap gamma(k) | generation | every field
//	          at full width (with new-entity codes: no fields, see below)
//	changed:  a set of positions among the baseline's surviving entities
//	if the changed set is not empty:
//	[coding]  only for schemas without codes (see Generic coding)
//	per changed entity, in slot order: its field mask, then per field of
//	          the mask, in field order, its residual
//	new rows: only with new-entity codes: per new entity, in slot order,
//	          its row against a guess (see New entities)
//	zero bits to a whole byte, then, if the schema asks for it
//	          (snapshot.Schema.Check), the check byte (Check) of the bytes
//	          before it
//
// A slot gap is the slot minus the previous slot minus 1 (the previous slot
// starting at -1). docs/PROTOCOL.md gives every bit of the game's packets.
//
// A set is written as a bitmask over its universe (a bit 1, then one bit per
// position) or as a count and gaps (a bit 0, the count gamma(0), and if it
// is not 0 a Rice parameter k in 4 bits and per member the gap to the
// previous member Rice(k)), whichever is shorter for this packet.
//
// # Prediction and residuals
//
// The schema's Predictor guesses a changed entity's row from its baseline
// row, the gap in ticks (tick minus baseline) and the entity's field mask;
// no Predictor guesses the baseline row. A Predictor that is a
// snapshot.Mover names the rows it moves (a projectile in flight): a
// survivor whose baseline row it moves is coded against its prediction
// instead of its baseline row, everywhere below: it is in the changed set
// only if it differs from its prediction, its mask names the fields that
// do, and the receiver gives one not in the changed set its prediction.
// Such an entity costs nothing while it moves as predicted; one the sender
// held back at its baseline row is a change. The field mask says which fields
// differ from the baseline: a field not in it keeps its baseline value,
// whatever the prediction. The residual of a field in the mask is its value
// minus its prediction, wrapped to the field's width and read as signed,
// then zigzagged (0, -1, 1, -2 ... become 0, 1, 2, 3 ...) into z.
//
// A field with a code (snapshot.Field.Code) writes z as the codeword of its
// bit length n (0 to the field's width), then the n-1 bits of z below its
// leading one. A schema with a mask code (snapshot.Schema.MaskCode) writes
// each field mask as its codeword. The codes are canonical prefix codes
// given by codeword lengths (bitpack.Code), trained on recorded traffic
// with the schema's predictor (package train), and part of the game's
// protocol: a field whose changes are small, or well predicted, costs a
// few bits.
//
// A Predictor that is a snapshot.Contexter sorts changed entities into
// contexts by their baseline row, which the receiver holds before it
// reads the mask; with context codes (snapshot.Schema.Contexts) and every
// field and the masks coded, an entity of context k writes its mask and
// residuals with context k's codes (a nil code: the schema's). Entities
// that change differently (a player run by input, a creature that walks
// as predicted) then do not pay for each other's changes. Package train
// counts per context too.
//
// # New entities
//
// A schema whose fields all have a new-entity code (snapshot.Field.NewCode)
// writes its new entities' rows after the changes, once the survivors hold
// their current rows, each as differences from a guess the receiver makes
// too. The makers of a packet are its survivors whose rows the schema's
// Spawner says can make others (Spawns), in slot order. If there are any,
// each new row starts with a bit: 1 if it is made, then the maker's index
// among the makers in bitlen(makers-1) bits and the age a (0 to 255, how
// many ticks before the delta's tick it was made) gamma(1). The guess of a
// made row is the Spawner's (Spawn, from the maker's current and baseline
// rows, the gap and a); that of any other row is the row just before it in
// slot order of the decoded snapshot, all zeros for the first. Then per
// field, last to first (a Spawner's guess of a field may use the fields
// after it), the length code of zigzag(value - guess) wrapped to the
// field's width, with the field's NewCode, or its SpawnCode if the row is
// made; a made row does not write a field without a SpawnCode, which is
// the guess. The encoder tries, per new entity, the guess of the entity before
// it and, per maker whose Spawner.Age places it near, a few ages, and
// writes the shortest.
//
// # Generic coding
//
// A schema without codes still works, coded per packet: the coding section
// holds, per field without a code wider than 2 bits, a gamma order k_f in
// bitlen(bits_f-1) bits chosen for this packet, and its residuals are
// gamma(k_f) of z; a field of 1 or 2 bits without a code writes the wrapped
// difference at its width. Without a mask code and with 2 to 8 fields, the
// coding section then holds a mask-mode bit, and if it is 1 the packet's
// most common mask: each entity then writes one bit, 1 for the common mask,
// or 0 and its own mask; with mask mode 0 (or more than 8 fields) each
// entity writes its mask, one bit per field. A schema of one field writes
// no mask.
//
// An entity whose slot holds another generation than in the baseline is
// removed and new: a reused slot is never one entity that teleports.
//
// Unchanged entities cost nothing, and an entity the sender held back keeps
// its baseline value: only a changed entity, or one a Mover moves, is
// predicted. Differences wrap
// at the field's width, so an angle going from the last step to step 0 is a
// change of one step.
//
// # Speed
//
// The encoder finds changed rows by comparing eight values at a time and
// packs the changes of a coded schema without a branch per value; it and
// the decoder allocate nothing once their scratch has grown to the views
// they meet. LastSizes says where the bits of a delta went.
//
// # Hostile input
//
// Decode checks a delta's check byte, if the schema has them, before
// anything else: entropy-coded bits are dense, and a delta cut or damaged
// on the way would otherwise often still parse. Then it checks every count against the schema's
// MaxEntities and every position against its universe, never allocates
// beyond a snapshot's size, and rejects unused codewords, a field in a mask
// that keeps its baseline value (a Mover's entity: its prediction), a maker beyond the packet's makers or an
// age above 255, and trailing bits. Encoders and decoders keep scratch
// grown to the snapshots they meet; none is safe for concurrent use: give
// each sender and receiver its own, sharing the schema's Tables.
package delta
