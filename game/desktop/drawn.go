package desktop

import (
	"encoding/json"
	"image/color"
	"math"
	"os"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/sightline-game/sightline/game/protocol"
)

// Drawn lists the bodies a frame drew and where, in screen px. The window
// loop writes it beside a screenshot (Options.Screenshot), so that a test
// can check every body against the pixels instead of guessing what the
// scene held.
type Drawn struct {
	// Self is the own player; SelfShown is false when it was not drawn
	// (not yet spawned).
	Self      DrawnBody `json:"self"`
	SelfShown bool      `json:"self_shown"`
	// Players are the other players drawn, Creatures the creatures.
	Players   []DrawnBody `json:"players"`
	Creatures []DrawnBody `json:"creatures"`
	// Over are what the frame drew over the bodies: projectiles, muzzle
	// flashes, sparks and bursts. A body under one does not show its own
	// colour everywhere.
	Over []DrawnMark `json:"over"`
	// MapSeed is the seed of the map drawn (arena.NewMap), MapOrigin the
	// screen px where the world's (0, 0) corner was drawn: tile (tx, ty)
	// covers MapOrigin + 64*(tx, ty) and 64 px more. Zero before the map
	// is known.
	MapSeed   uint64     `json:"map_seed"`
	MapOrigin [2]float64 `json:"map_origin"`
	// Draws counts the frame's draw calls for the world (the map's chunks,
	// every sprite, the health bars), before Ebitengine batches them.
	Draws int `json:"draws"`
}

// DrawnBody is one body drawn on screen.
type DrawnBody struct {
	At       [2]float64 `json:"at"`     // screen position of the centre
	Radius   float64    `json:"radius"` // in px
	Color    [3]uint8   `json:"color"`  // the body's colour before any hurt tint
	Dead     bool       `json:"dead,omitempty"`
	Hurt     bool       `json:"hurt,omitempty"`
	Shielded bool       `json:"shielded,omitempty"`
}

// DrawnMark is a sprite drawn over the bodies: every pixel it may cover
// lies within Radius of At.
type DrawnMark struct {
	At     [2]float64 `json:"at"`
	Radius float64    `json:"radius"`
}

// markOver records img drawn at (x, y) over the bodies, however it is
// turned and pivoted.
func (d *Drawn) markOver(x, y float64, img *ebiten.Image) {
	b := img.Bounds()
	d.Over = append(d.Over, DrawnMark{At: [2]float64{x, y}, Radius: math.Hypot(float64(b.Dx()), float64(b.Dy()))})
}

func drawnBody(x, y, r float64, c color.RGBA, state uint32) DrawnBody {
	return DrawnBody{
		At: [2]float64{x, y}, Radius: r, Color: [3]uint8{c.R, c.G, c.B},
		Dead:     state&protocol.StateDead != 0,
		Hurt:     state&protocol.StateHurt != 0,
		Shielded: state&protocol.StateShielded != 0,
	}
}

// reset empties d for the next frame, keeping its storage.
func (d *Drawn) reset() {
	d.SelfShown = false
	d.Players, d.Creatures, d.Over = d.Players[:0], d.Creatures[:0], d.Over[:0]
	d.MapSeed, d.MapOrigin, d.Draws = 0, [2]float64{}, 0
}

// writeJSON writes d to path.
func (d *Drawn) writeJSON(path string) error {
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// A reporter is a scene that says what its last frame drew.
type reporter interface {
	LastDrawn() *Drawn
}

// LastDrawn returns what the last frame drew. It is valid until the next.
func (g *Game) LastDrawn() *Drawn { return &g.drawn }
