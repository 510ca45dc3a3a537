package arena

import "math"

// Dash is a player's dash state: the ticks of the current dash left, its
// direction, the ticks until the next one may start, and whether the dash
// button was down in the last input. The world keeps one per player; a
// client that predicts its own player keeps one too and, fed the same inputs
// in the same order (Press for each input, then Move for each tick), gets the
// same dashes as the server: the state follows from the inputs and the ticks
// between them, and with one input applied a tick, as in play, from the
// inputs alone. A tick without an input goes on with a dash under way.
//
// A dash starts on a press, an input with the button down after one with it
// up: holding the button does not dash again when the cooldown ends. It goes
// along the input's movement direction at full DashSpeed whatever the
// stick's strength, or along the aim when the stick is centred, for
// DashTicks ticks; the stick does not steer it. The zero Dash is a player at
// rest, ready to dash.
type Dash struct {
	left   uint8   // ticks of the current dash still to move
	wait   uint8   // ticks until the next dash may start
	held   bool    // the button was down in the last input
	dx, dy float64 // the current dash's direction, length 1
}

// Press takes the dash button of one input: held is its state, (dx, dy) the
// input's checked movement direction (MoveIntent), aim the player's aim
// after the input, alive whether the player is alive when the input is
// consumed. It reports whether the input pressed the button (held now, not
// in the previous input) and whether that started a dash: a live player
// whose cooldown is over dashes. A dead player's dash and cooldown end.
func (d *Dash) Press(held bool, dx, dy, aim float64, alive bool) (pressed, started bool) {
	pressed = held && !d.held
	d.held = held
	if !alive {
		d.left, d.wait = 0, 0
		return pressed, false
	}
	if !pressed || d.wait > 0 {
		return pressed, false
	}
	if l := math.Hypot(dx, dy); l > 0 {
		d.dx, d.dy = dx/l, dy/l
	} else {
		d.dy, d.dx = math.Sincos(aim)
	}
	d.left, d.wait = DashTicks, DashCooldown
	return true, true
}

// Move moves a live player at (x, y) one tick and advances the dash's clock:
// while dashing, DashSpeed*Dt along the dash; otherwise as MovePlayer along
// (dx, dy), the direction of the last input; it ends on the position grid
// (Map.Snap). Server and predicting client both call it, once per tick the
// player is alive.
func (d *Dash) Move(m *Map, x, y, dx, dy float64) (float64, float64) {
	if d.left > 0 {
		d.left--
		x, y = m.Snap(m.Slide(x, y, d.dx*DashSpeed*Dt, d.dy*DashSpeed*Dt, PlayerRadius))
	} else if dx != 0 || dy != 0 {
		x, y = MovePlayer(m, x, y, dx, dy)
	}
	if d.wait > 0 {
		d.wait--
	}
	return x, y
}

// Dashing reports whether the next Move is a dash's.
func (d Dash) Dashing() bool { return d.left > 0 }

// Ready reports whether a press would start a dash now.
func (d Dash) Ready() bool { return d.wait == 0 }

// stop ends a dead player's dash and cooldown.
func (d *Dash) stop() { d.left, d.wait = 0, 0 }

// pressDash feeds the input p just consumed to its dash and counts what it did.
func (w *World) pressDash(p *player, q *queuedInput) {
	switch pressed, started := p.dash.Press(q.dash, q.dx, q.dy, p.aim, !p.dead); {
	case started:
		w.stats.Dashes++
	case pressed:
		w.stats.DashesRefused++
	}
}

// hashDash adds the player's dash state and its queued inputs' dash buttons
// to a world hash.
func (p *player) hashDash(h *hasher) {
	d := &p.dash
	h.u64(uint64(d.left), uint64(d.wait))
	h.bool(d.held)
	h.f64(d.dx, d.dy)
	for _, q := range p.queue[:p.queued] {
		h.bool(q.dash)
	}
}
