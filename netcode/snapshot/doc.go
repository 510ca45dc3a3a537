// Package snapshot holds the quantized state of a world at one tick.
//
// A Schema lists the fields every entity carries, each with its bit width.
// A Snapshot stores the entities of one tick as flat arrays (struct of
// arrays): their ids, sorted by slot index, and their field values, one row of
// len(Schema.Fields) values per entity. All storage is allocated once, at the
// schema's MaxEntities, so filling, copying and comparing snapshots never
// allocates.
//
// Entity slots are reused. Each id carries a generation, so that a despawn and
// a spawn in the same slot are a removal plus a new entity, never one entity
// that teleports.
package snapshot
