package gen

import (
	"fmt"

	"github.com/sightline-game/sightline/assets/sheet"
)

// A painter paints one sheet: its name (images/NAME.png) and the canvas.
type painter struct {
	name  string
	paint func() *canvas
}

// art renders the sprite sheets and tiles into add, laid out as package
// assets/sheet says.
func art(add func(path string, data []byte)) error {
	for _, p := range []painter{
		{sheet.Player, paintPlayer},
		{sheet.Creature, paintCreature},
		{sheet.Bolt, paintBolts},
		{sheet.Flash, paintFlash},
		{sheet.Sparks, paintSparks},
		{sheet.Burst, paintBurst},
		{sheet.Pickups, paintPickups},
		{sheet.Marks, paintMarks},
		{sheet.Floor, paintFloor},
		{sheet.Walls, paintWalls},
	} {
		b, err := encodePNG(p.paint().nrgba())
		if err != nil {
			return fmt.Errorf("gen: image %s: %w", p.name, err)
		}
		add("images/"+p.name+".png", b)
	}
	return nil
}
