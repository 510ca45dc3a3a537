// Package interest decides what each client may see: a spatial grid of every
// entity's position, rebuilt each tick, answers "who is within r of this
// point" by visiting grid cells and then checking the exact distance (the
// cells' square reaches further than the circle). An Area remembers who a
// client saw last tick, so that an entity enters at radius r but leaves only
// beyond r plus a margin: entities at the edge do not flicker in and out.
//
// Positions are integers in the snapshot's quantized units, so the area a
// client is told about is decided on exactly the values it receives.
package interest
