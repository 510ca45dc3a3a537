package settingsui

// Keys is a set of key presses (a key that went down this frame, or
// repeats while held).
type Keys uint32

// The keys the settings screen and the pause menu read.
const (
	KeyUp        Keys = 1 << iota // previous field
	KeyDown                       // next field
	KeyLeft                       // volume down; toggle
	KeyRight                      // volume up; toggle
	KeyEnter                      // toggle, or choose
	KeySpace                      // toggle (types a space in the name)
	KeyEscape                     // close
	KeyBackspace                  // delete the name's last character
	KeyTab                        // next field, round
	KeyShiftTab                   // previous field, round
	KeyMute                       // M: mute on or off (types an m in the name)
	KeyMinus                      // volume down
	KeyPlus                       // volume up
)

// Input is one frame of the devices, in the game's logical pixels.
type Input struct {
	// Pressed are the keys that went down (or repeated) this frame.
	Pressed Keys
	// Typed are the characters typed this frame.
	Typed []rune
	// MouseX, MouseY is the cursor.
	MouseX, MouseY float64
	// Click: the left button went down this frame.
	Click bool
	// Held: the left button is down (a slider follows the cursor while
	// it stays down after a click on it).
	Held bool
	// Wheel is the vertical wheel's turn this frame (up positive).
	Wheel float64
}

// Has reports whether k went down this frame.
func (in Input) Has(k Keys) bool { return in.Pressed&k != 0 }

// Rect is a rectangle on the logical screen.
type Rect struct{ X, Y, W, H float64 }

// Contains reports whether (x, y) is inside r.
func (r Rect) Contains(x, y float64) bool {
	return x >= r.X && x < r.X+r.W && y >= r.Y && y < r.Y+r.H
}
