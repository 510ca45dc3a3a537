package arena

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// dashStep is one tick of a dash script: the input the player sends (none:
// nothing arrives that tick) and the move expected of it.
type dashStep struct {
	in     *Input
	dx, dy float64 // expected displacement in px
}

func walkRight(buttons uint8) *Input { return &Input{MoveX: 127, Buttons: buttons} }

// dashScript repeats step n times.
func dashScript(n int, in *Input, dx, dy float64) []dashStep {
	s := make([]dashStep, n)
	for i := range s {
		s[i] = dashStep{in, dx, dy}
	}
	return s
}

func concat(parts ...[]dashStep) []dashStep {
	var out []dashStep
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// TestDashRule drives one player in the open middle of the map and checks
// every tick's move: a press dashes DashTicks ticks at DashSpeed along the
// stick (full speed even on a light push) or along the aim when standing, a
// held button does not dash again, a press during the cooldown does
// nothing, and a tick without input goes on dashing.
func TestDashRule(t *testing.T) {
	const walk, dash = PlayerSpeed * Dt, DashSpeed * Dt
	d := dash / math.Sqrt2
	cases := []struct {
		name             string
		steps            []dashStep
		dashes, refusals uint64
	}{
		{"press while walking", concat(
			dashScript(3, walkRight(0), walk, 0),
			dashScript(1, walkRight(ButtonDash), dash, 0),
			dashScript(DashTicks-1, walkRight(0), dash, 0),
			dashScript(3, walkRight(0), walk, 0),
		), 1, 0},
		{"held: one dash only", concat(
			dashScript(DashTicks, &Input{Buttons: ButtonDash}, dash, 0),
			dashScript(2*DashCooldown, &Input{Buttons: ButtonDash}, 0, 0),
		), 1, 0},
		{"standing: along the aim", concat(
			dashScript(1, &Input{Buttons: ButtonDash, Aim: math.Pi / 2}, 0, dash),
			dashScript(DashTicks-1, &Input{Aim: math.Pi / 2}, 0, dash),
			dashScript(2, &Input{Aim: math.Pi / 2}, 0, 0),
		), 1, 0},
		{"light push: full dash speed", concat(
			dashScript(1, &Input{MoveX: -30, MoveY: 30, Buttons: ButtonDash}, -d, d),
			dashScript(DashTicks-1, &Input{MoveX: -30, MoveY: 30}, -d, d),
			dashScript(1, &Input{MoveX: -30, MoveY: 30}, -walk*30/127, walk*30/127),
		), 1, 0},
		{"the stick does not steer a dash", concat(
			dashScript(1, walkRight(ButtonDash), dash, 0),
			dashScript(DashTicks-1, &Input{MoveY: 127}, dash, 0),
			dashScript(1, &Input{MoveY: 127}, 0, walk),
		), 1, 0},
		{"a press in the cooldown does nothing", concat(
			dashScript(1, walkRight(ButtonDash), dash, 0),
			dashScript(DashTicks-1, &Input{}, dash, 0),
			dashScript(DashCooldown-DashTicks-2, &Input{}, 0, 0),
			dashScript(1, &Input{Buttons: ButtonDash}, 0, 0), // tick DashCooldown-1
			dashScript(1, &Input{}, 0, 0),
			dashScript(1, &Input{Buttons: ButtonDash}, dash, 0), // tick DashCooldown: ready
			dashScript(1, &Input{}, dash, 0),
		), 2, 1},
		{"no input: the dash goes on", concat(
			dashScript(1, walkRight(ButtonDash), dash, 0),
			dashScript(2, nil, dash, 0),
			dashScript(DashTicks-3, walkRight(ButtonDash), dash, 0),
			dashScript(2, nil, walk, 0),
		), 1, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newBare(t, Config{Seed: 5})
			w.AddPlayer(1)
			place(t, w, 1, mid-150, mid) // open for 390 px to the right, 100 px up and down
			s := seqs{}
			for i, st := range c.steps {
				if st.in != nil {
					s.apply(w, 1, *st.in)
				}
				p := w.playerOf(t, 1)
				x, y := p.x, p.y
				w.Step()
				// A move ends on the position grid: up to half a step of it off.
				if gx, gy := p.x-x, p.y-y; math.Abs(gx-st.dx) > PositionGrid/2+1e-9 || math.Abs(gy-st.dy) > PositionGrid/2+1e-9 {
					t.Fatalf("tick %d: moved (%.3f, %.3f), want (%.3f, %.3f)", i, gx, gy, st.dx, st.dy)
				}
				if info, _ := w.Player(1); info.Dashing != p.dash.Dashing() {
					t.Fatalf("tick %d: PlayerInfo.Dashing %v, dash %+v", i, info.Dashing, p.dash)
				}
			}
			if st := w.Stats(); st.Dashes != c.dashes || st.DashesRefused != c.refusals {
				t.Fatalf("dashes %d, refused %d; want %d, %d", st.Dashes, st.DashesRefused, c.dashes, c.refusals)
			}
		})
	}
}

// TestDashAgainstWall: a dash into a wall slides along it like a walk and
// never ends in the wall.
func TestDashAgainstWall(t *testing.T) {
	w := newBare(t, Config{Seed: 1})
	w.AddPlayer(1)
	x, y := openUnderWall(t, w.m)
	place(t, w, 1, x, y)
	s := seqs{}
	s.apply(w, 1, Input{MoveX: 40, MoveY: -127, Buttons: ButtonDash}) // up and a little right, into the wall
	p := w.playerOf(t, 1)
	for range DashTicks {
		px := p.x
		w.Step()
		if w.m.Blocked(p.x, p.y, PlayerRadius) {
			t.Fatalf("dashed into the wall at (%v, %v)", p.x, p.y)
		}
		if p.x <= px {
			t.Fatalf("stopped by the wall instead of sliding: x %v -> %v", px, p.x)
		}
	}
	if top := y - 20 - PlayerRadius; math.Abs(p.y-(top+PlayerRadius)) > Tile/8 {
		t.Fatalf("y %v: not against the wall at %v", p.y, top)
	}
}

// TestDashDeathAndHash: dying ends a dash and its cooldown, and the dash
// state is in the world's hash.
func TestDashDeathAndHash(t *testing.T) {
	a, b := newBare(t, Config{Seed: 2}), newBare(t, Config{Seed: 2})
	for _, w := range []*World{a, b} {
		w.AddPlayer(1)
		place(t, w, 1, mid, mid)
	}
	sa, sb := seqs{}, seqs{}
	sa.apply(a, 1, Input{MoveX: 127, Buttons: ButtonDash})
	sb.apply(b, 1, Input{MoveX: 127})
	a.Step()
	b.Step()
	pb := b.playerOf(t, 1)
	pb.x = a.playerOf(t, 1).x // same place, different dash
	if a.Hash() == b.Hash() {
		t.Fatal("a dash is not in the hash")
	}
	p := a.playerOf(t, 1)
	p.shieldUntil = 0
	a.damagePlayer(0, PlayerHealth, 0, WeaponBite, 0)
	a.Step()
	if p.dash.Dashing() || !p.dash.Ready() {
		t.Fatalf("dead, yet dash %+v", p.dash)
	}
	for range RespawnTicks {
		sa.apply(a, 1, Input{})
		a.Step()
	}
	if p.dead {
		t.Fatal("not respawned")
	}
	sa.apply(a, 1, Input{MoveX: 127, Buttons: ButtonDash})
	x := p.x
	a.Step()
	if p.x-x < DashSpeed*Dt-1e-9 || a.Stats().Dashes != 2 {
		t.Fatalf("after the respawn a press moved %v px (dashes %d)", p.x-x, a.Stats().Dashes)
	}
}

// A client predicting its own player runs the same Dash as the server:
// Press for each input it sends, then Move.
func ExampleDash() {
	m := NewMap(1)
	x, y := float64(WorldSize/2), float64(WorldSize/2)
	var d Dash
	var moves []string
	for tick := range 12 {
		in := Input{MoveX: 127}
		if tick == 2 {
			in.Buttons = ButtonDash
		}
		dx, dy := MoveIntent(in.MoveX, in.MoveY)
		d.Press(in.Buttons&ButtonDash != 0, dx, dy, in.Aim, true)
		nx, ny := d.Move(m, x, y, dx, dy)
		moves = append(moves, fmt.Sprintf("%.1f", math.Hypot(nx-x, ny-y)))
		x, y = nx, ny
	}
	fmt.Println(strings.Join(moves, " "))
	fmt.Println("ready again:", d.Ready())
	// Output:
	// 7.4 7.4 18.4 18.4 18.4 18.4 18.4 18.4 7.4 7.4 7.4 7.4
	// ready again: false
}
