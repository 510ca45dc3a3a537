// Package delta is the project's snapshot wire format: quantized, bit-packed
// snapshots, either whole or as a delta against a baseline the receiver is
// known to hold.
//
// # Packet layout
//
// Every packet starts with one bit: 0 for a full snapshot, 1 for a delta.
// Bits are packed least significant first (package bitpack); "gamma(k)" below
// is an Exp-Golomb code of order k, short for small numbers.
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
//	          at full width
//	changed:  a set of positions among the baseline's surviving entities
//	if the changed set is not empty (else the packet ends here):
//	per field: small-delta width W (enough bits for 0..bits-1), and if W > 0 a
//	           bit "every change of this field fits W bits"
//	field-mask mode (1 bit) [ + the packet's most common field mask ]
//	per changed entity, in slot order: its field mask, then per changed
//	          field the wrapped difference from the baseline, zigzagged in W
//	          bits, or the absolute value at full width (a flag bit says which,
//	          unless every change of the field fits W)
//
// A slot gap is the slot minus the previous slot minus 1 (the previous slot
// starting at -1). docs/PROTOCOL.md gives every bit and its polarity.
//
// A set is written as a bitmask over its universe or as a count plus gaps
// coded gamma(k), whichever is shorter for this packet; a bit says which, and
// two more bits give k. The encoder chooses W per field and the mask mode by
// measuring the packet's own changes, so the header adapts to slow and fast
// fields alike.
//
// An entity whose slot holds another generation than in the baseline is
// removed and new: a reused slot is never one entity that teleports.
//
// Unchanged entities cost nothing. Differences wrap at the field's width, so
// an angle going from the last step to step 0 is a change of one step.
//
// # Hostile input
//
// Decode checks every count against the schema's MaxEntities and every
// position against its universe, never allocates, and rejects trailing bits.
// A Codec keeps scratch space sized for the schema; it is not safe for
// concurrent use: give each sender and receiver its own.
package delta
