// Package broadcast publishes a match as a stream that any HTTP cache can fan
// out, and keeps it as a replay in the same format.
//
// # Model
//
// A broadcast is a sequence of chunks, each an immutable run of bytes:
//
//   - a keyframe chunk holds one tick whole: a full snapshot of the world,
//     every live record, and the stream's preamble (what a viewer must know
//     before its first tick, such as a map seed; opaque to this package);
//   - a deltas chunk (a fragment) holds the next FragmentTicks ticks, each
//     a delta snapshot against the tick before it, the records that changed
//     on that tick and the events that happened on it.
//
// Fragment n's deltas start at the tick after keyframe n's. A viewer reads
// keyframe n, then deltas n, n+1, n+2 ... and needs no other keyframe. Each
// tick (a [Frame]) carries the hash of the world after it (see
// snapshot.Snapshot.Hash), so that every viewer verifies every tick it
// decodes.
//
// The package knows no game: snapshots are encoded by the game's
// snapstream.Format, records and events are ids, kinds and opaque bytes.
//
// # Pieces
//
//   - [Writer] turns a match's ticks, records and events into chunks and
//     hands each to its sinks once complete.
//   - [Origin] is a sink and an http.Handler: it holds the newest chunks,
//     publishes each only after the broadcast's delay, and serves them with
//     cache headers that say they never change, beside a small index (see
//     [Index]) that names the newest, which caches may keep for a second.
//   - [Recorder] is a sink that writes a replay file; [OpenReplay] reads
//     one back, with a table of its keyframes for seeking.
//   - [Playback] decodes chunks in order, verifies each tick's hash and
//     hands out each tick's snapshot, records and events.
//   - [Viewer] follows a live broadcast over HTTP (or any fetch function)
//     and feeds a Playback.
//
// The wire of each piece is in docs/PROTOCOL.md, section "Broadcasts and
// replays".
package broadcast
