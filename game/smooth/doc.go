// Package smooth turns the arena's discrete, late and lossy network state into
// motion a player can look at. It holds the three pieces of the client that sit
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
//   - [Conditioner] wraps a transport.Conn and adds loss, latency and jitter
//     both ways (events only get latency: they stay reliable and ordered), so
//     that a player can feel what prediction and interpolation do on a bad
//     link from the game's network overlay.
//
// Positions are in world pixels (the arena's quantized snapshot values are
// dequantized with protocol.PosQuant and protocol.HeadingQuant), headings in radians.
// None of the types is safe for concurrent use except [Conditioner], whose
// methods may be called from any goroutine.
package smooth
