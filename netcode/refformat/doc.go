// Package refformat implements two published, byte-aligned snapshot formats
// as snapstream.Formats, so that the project's own format can be measured
// against them on the same traffic.
//
// Both formats identify entities by position: a snapshot must hold the same
// N entities in the same order, with ids 0..N-1 (generation 0), on both ends.
// Decoders rebuild the ids as EntityID{Index: i}.
//
// # Wire layout
//
// Every packet starts with a 7-byte header:
//
//	tick  uint32, little-endian (ticks start at 1)
//	back  uint8: 0 for a full packet, else the baseline is tick - back
//	N     uint16, little-endian: the number of entities
//
// A field value takes ceil(bits/8) bytes, little-endian, whatever its value:
// a 16-bit field 2 bytes, a 10-bit field 2 bytes, an 8-bit field 1 byte.
//
// Full packets (Full, and ByteMask's full fallback) follow the header with
// every field of every entity, entity by entity, in schema order; at N = 100
// and 7 bytes per entity that is 707 bytes.
//
// ByteMask deltas follow the header with a changed bitmask of ceil(N/8) bytes
// (bit i%8 of byte i/8 is set when entity i differs from the baseline in any
// field), then, for each set bit in order, a field mask of ceil(F/8) bytes for
// F fields (one byte up to 8 fields; bit f%8 of byte f/8 is set when field f
// changed) and the values of the changed fields, absolute, in field order.
// Its size is 7 + ceil(N/8) + sum over changed entities of (mask bytes +
// bytes of the changed fields); see ByteMaskDeltaSize.
//
// # Decoding
//
// Decoders treat packets as hostile. They bound every read, check N against
// the output schema's MaxEntities and against the bytes present before any
// work, reject values wider than their fields and trailing bytes, and never
// panic or allocate on success. They also accept only the canonical
// encoding: a delta may not mark an entity changed with an empty field mask,
// nor send a field equal to its baseline value, nor set bitmask bits past N.
// Hence any packet that decodes re-encodes to the same bytes.
//
// Errors wrap the sentinels in errors.go.
package refformat
