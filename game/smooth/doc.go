// Package smooth turns the arena's discrete, late and lossy network state into
// motion a player can look at. It holds the two pieces of the client that sit
// between the decoded snapshots and the drawing code, none of which depends on
// Ebitengine or on a particular transport:
//
//   - [Predictor] runs the player's own entity ahead of the server with the
//     same movement rules the server uses (client-side prediction), rewinds to
//     the server's position whenever a snapshot says which input it applied,
//     replays the newer inputs (reconciliation), and hides the difference as a
//     visual error offset that decays over about 100 ms instead of snapping.
//
//   - [Interpolator] draws everything else a little in the past, between two
//     snapshots the client already holds (entity interpolation). It measures
//     the arrival jitter of snapshots against a smoothed server-tick clock and
//     picks its delay from it: one tick plus a jitter allowance, changed by
//     running the render clock slightly fast or slow, never by jumping.
//
// A player can feel both at work on a bad link: the game's network overlay
// sets the loss, latency and jitter of a netcode/transport/conditioner under
// the connection.
//
// Positions are in world pixels (the arena's quantized snapshot values are
// dequantized with protocol.PosQuant and protocol.HeadingQuant), headings in radians.
// Neither type is safe for concurrent use.
package smooth
