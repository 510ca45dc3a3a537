// Package view builds what each client is sent: its view of the world, one
// tick at a time, under a byte budget, encoded against the newest view the
// client acknowledged.
//
// The world is quantized once per tick into a WorldRing that all clients
// share. A client's view is a list of entries (slot, generation, and the tick
// its value comes from): the state the client will hold after decoding that
// tick's packet. Only these entries are kept per client (ViewHistory), not
// copies of snapshots, so history costs 8 bytes per entity in view per tick.
//
// Each tick a Sender takes the client's candidates (the entities in its area
// of interest, with priorities), compares them with its baseline view, and
// spends the tick's byte allowance on what changed, highest accumulated
// priority first. An entity that did not fit keeps its baseline value in the
// new view: it stays changed and goes out in a later tick. Its priority keeps
// accumulating, so nothing starves, and an entity whose value would otherwise
// outlive the world ring is sent regardless. Entities entering the area are
// new for this client (sent whole, when they fit); entities leaving are
// removed. Without a usable baseline the view starts empty and grows by the
// budget, so even a client joining a crowd never gets a datagram over the cap.
//
// The Sender builds the new view beside its baseline in one merge, so it
// knows what was removed, what is new and which fields of each survivor
// changed. When every change goes it hands that list to the Format
// (snapstream.ChangesAppender, which package delta's Codec is) instead of
// having it compare the two views again; the packet is the same.
//
// Sender.Append runs as a pipeline of phases, each taking what the ones
// before it returned and returning a small value of its own; only what lasts
// from tick to tick (the view history, the acknowledgement, the token bucket,
// the waiting entities and their accumulated priorities, the cost scale,
// reused scratch space) stays on the Sender:
//
//   - pickBaseline: the acknowledged view, if usable, and why the packet is
//     otherwise a full view (a baseline);
//   - allowance: the tick's bits once the header is paid, and whether the
//     budget is in debt (a budget);
//   - merge: the view as if every change is sent, with its values, the
//     baseline's values and the list of changes, and an item per changed or
//     new entity with its cost and accumulated priority (merged);
//   - choose: which items the budget sends, highest priority first (the
//     items marked, and a choice saying whether all go);
//   - build: the view that choice leaves the client with, and its values
//     (built);
//   - encode: the packet, a delta against the baseline or a full view (a
//     packet); while it is over the cap, dropLowest takes the least
//     wanted out of the choice and build and encode go again;
//   - commit: records the built view, carries over what waits, pays the
//     packet from the bucket and returns the Report.
//
// The values' slices and snapshots are the Sender's (or its Shared's)
// scratch, passed by reference: a tick allocates nothing.
//
// The budget has a floor, MinRate: the packet header and the player's own
// entity at its largest, every tick. Both go every tick whatever the budget
// holds (a packet that costs more than the tick's allowance is a debt the
// next ticks pay), so a client is never starved of its own state, and at or
// above the floor doing so never runs the client into debt.
package view
