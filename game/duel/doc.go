// Package duel measures how fair shooting feels: a duel between two
// headless players, an aimer and a strafer, over any transport.Conn, in
// real time (WebRTC) or on a virtual clock (tests).
//
// The aimer plays as a perfect human would on its own screen: it predicts
// its own movement and shots (smooth.Predictor, smooth.Shots), draws the
// strafer interpolated (smooth.Interpolator), states in every input what it
// drew (arena.Input.View) and aims exactly at that, leading the drawn
// motion by the bolt's flight time. The strafer runs about at full speed,
// changing direction at random. The Duel harness walks the two to a spot
// pair about 300 px apart with a clear line of sight, counts the aimer's
// shots while the strafer, as the aimer draws it, is in sight at 200-400 px,
// and the server's hits of the aimer on the strafer. With lag compensation
// the hit rate should not depend on latency; without it, it falls.
//
// After each kill the strafer respawns far away and the two walk together
// again; shots whose outcome the kill cut short (fired after it on the
// server, or still on their way) are not counted.
package duel
