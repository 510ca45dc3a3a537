package arena

import "math"

// PlayerID names a connected player for the length of its connection. Id 0
// is reserved: in events it means "no player" (a creature).
type PlayerID uint32

// MaxPlayerID is the largest player id the world accepts.
const MaxPlayerID = 1<<28 - 1

// Buttons held during a tick.
const (
	ButtonFire = 1 << iota // fire the gun (at most once every FireInterval ticks)
	ButtonDash             // dash on the press (at most once every DashCooldown ticks)
)

const knownButtons = ButtonFire | ButtonDash

// Input is what a player wants during one tick. The world checks it: a move
// longer than 1 is scaled down, unknown buttons are ignored, a non-finite
// aim keeps the previous one.
type Input struct {
	Buttons      uint8
	MoveX, MoveY int8    // -127..127 each: the direction and strength of movement
	Aim          float64 // radians
	// View is what the client was drawing of the others when it made the
	// input: its shots are judged against that (lag compensation), as far
	// back as Config.RewindTicks allows and no further back than the
	// server's estimate of that client's view (viewbound.go).
	View View
	// Acked is set by the server, never read from the wire: the newest
	// tick the client had acknowledged when it made the input (its
	// datagram's ack, less a tick for each newer input the datagram
	// carries); 0: unknown. It bounds the View the input may claim.
	Acked uint32
}

// wrapAngle returns a in [0, 2π).
func wrapAngle(a float64) float64 {
	a = math.Mod(a, 2*math.Pi)
	if a < 0 {
		a += 2 * math.Pi
	}
	if a >= 2*math.Pi { // a tiny negative a wraps to exactly 2π
		a = 0
	}
	return a
}
