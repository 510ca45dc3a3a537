package desktop

import (
	"fmt"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/protocol"
)

// A spectator (PlayConfig.Watch) watches the match without playing: the
// camera follows the player the server says its views follow, or flies
// free; it sends acks and no inputs, and the HUD says whom it watches.
//
//	Space, click     the next player (by score); right click the one before
//	L                the leader (the player with the highest score)
//	K                the player who made the last kill
//	F                a free camera, flown with WASD or the arrows (F again follows)

// watchState is a spectator's camera.
type watchState struct {
	free   bool
	x, y   float64   // the free camera's centre, in world px
	sentAt time.Time // when the free camera's point was last sent
	sentX  float64
	sentY  float64
	// killer is the player who made the last kill (K follows it).
	killer uint32
	// asked: Config.Follow was asked for.
	asked bool
	// at is where the followed player was drawn last frame, if found.
	at    [2]float64
	found bool
}

// freeCameraSpeed is how fast the free camera flies, in px a second.
const freeCameraSpeed = 900

// freeCameraSends is how often at most a moving free camera tells the
// server its point.
const freeCameraSends = 5

// watchKeyHint is the bottom line's reminder of a spectator's keys.
const watchKeyHint = "Space next player · L leader · K last killer · F free camera · Tab scores · F3 network · Esc menu"

// spectating reports whether the game watches rather than plays.
func (g *Game) spectating() bool { return g.cl.Spectating() }

// updateWatch runs once per Update for a spectator: its keys, the free
// camera's flight, and acks at the input clock (no input is sent).
func (g *Game) updateWatch(now time.Time, moveX, moveY int8, keysFree bool) {
	w := &g.watch
	if g.cfg.Follow != 0 && !w.asked {
		w.asked = true
		g.follow(g.cfg.Follow)
	}
	if keysFree {
		switch {
		case inpututil.IsKeyJustPressed(ebiten.KeySpace), inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft):
			g.followNext(1)
		case inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonRight):
			g.followNext(-1)
		case inpututil.IsKeyJustPressed(ebiten.KeyL):
			g.follow(0)
		case inpututil.IsKeyJustPressed(ebiten.KeyK):
			if w.killer != 0 {
				g.follow(w.killer)
			}
		case inpututil.IsKeyJustPressed(ebiten.KeyF):
			if w.free {
				g.follow(0)
			} else {
				w.free = true
				w.x, w.y = g.cam.X+g.sw/2, g.cam.Y+g.sh/2
				g.flyTo(now, true)
			}
		}
	}
	if w.free {
		dt := 1.0 / UpdateRate
		w.x = min(max(w.x+float64(moveX)/127*freeCameraSpeed*dt, 0), arena.WorldSize)
		w.y = min(max(w.y+float64(moveY)/127*freeCameraSpeed*dt, 0), arena.WorldSize)
		g.flyTo(now, false)
	}
	g.net.clock.Report(g.cl.TakeSpare())
	for k := g.net.clock.Due(now); k > 0 && !g.net.closed; k-- {
		g.cl.SendAck()
	}
}

// follow asks the server to follow player (0: the leader).
func (g *Game) follow(player uint32) {
	g.watch.free = false
	if err := g.cl.Follow(player); err != nil {
		g.log.Warn("spectator: follow not sent", "err", err)
	}
}

// followNext follows the player after (step 1) or before (-1) the one
// followed now, in the scoreboard's order.
func (g *Game) followNext(step int) {
	rows := g.records.scores
	if len(rows) == 0 {
		return
	}
	w, _ := g.cl.Watching()
	i := 0
	for k, r := range rows {
		if uint32(r.Player) == w.Player {
			i = (k + step + len(rows)) % len(rows)
			break
		}
	}
	g.follow(uint32(rows[i].Player))
}

// flyTo tells the server the free camera's point: at once when asked,
// else when it moved, at most freeCameraSends times a second.
func (g *Game) flyTo(now time.Time, force bool) {
	w := &g.watch
	moved := w.x != w.sentX || w.y != w.sentY
	if !force && (!moved || now.Sub(w.sentAt) < time.Second/freeCameraSends) {
		return
	}
	if err := g.cl.FlyTo(w.x, w.y); err != nil {
		g.log.Warn("spectator: camera not sent", "err", err)
		return
	}
	w.sentAt, w.sentX, w.sentY = now, w.x, w.y
}

// placeWatchCamera points the camera for a spectator: at the free camera,
// or at the followed player as drawn last frame (smooth), else, the first
// frame after a change, as the newest snapshot has it.
func (g *Game) placeWatchCamera() {
	w := &g.watch
	switch {
	case w.free:
		g.cam.Follow(w.x, w.y)
		return
	case w.found:
		g.cam.Follow(w.at[0], w.at[1])
		return
	}
	told, ok := g.cl.Watching()
	if !ok || told.Mode != protocol.WatchFollow || told.Player == 0 {
		return
	}
	if _, s := g.cl.Newest(); s != nil {
		if i, ok := s.Find(told.Slot); ok {
			row := s.Row(i)
			g.cam.Follow(protocol.PosQuant.Dequantize(row[protocol.FieldX]), protocol.PosQuant.Dequantize(row[protocol.FieldY]))
		}
	}
}

// noteFollowed remembers where the followed player was drawn this frame,
// for the next frame's camera.
func (g *Game) noteFollowed() {
	w := &g.watch
	told, ok := g.cl.Watching()
	w.found = false
	if !ok || told.Mode != protocol.WatchFollow || told.Player == 0 {
		return
	}
	g.drawn.Followed = told.Player
	for i := range g.ents {
		if e := &g.ents[i]; e.Kind == protocol.KindPlayer && e.id.Index == told.Slot {
			w.at, w.found = [2]float64{e.X, e.Y}, true
			x, y := g.cam.ToScreen(e.X, e.Y)
			g.drawn.FollowedAt = [2]float64{x, y}
			g.drawn.FollowedShown = x >= 0 && x <= g.sw && y >= 0 && y <= g.sh
			return
		}
	}
}

// watchLine is the HUD's top-left line for a spectator: whom it watches.
func (g *Game) watchLine() (title, line string) {
	told, ok := g.cl.Watching()
	switch {
	case g.watch.free || (ok && told.Mode == protocol.WatchFree):
		return "spectating", "free camera: WASD to fly, F to follow"
	case !ok || told.Player == 0:
		return "spectating", "nobody to follow yet"
	}
	id := arena.PlayerID(told.Player)
	if s, rank, ok := g.records.score(id); ok {
		return "watching " + g.name(told.Player), fmt.Sprintf("score %d   kills %d   deaths %d   #%d of %d", s.Score.Score, s.Kills, s.Deaths, rank, len(g.records.scores))
	}
	return "watching " + g.name(told.Player), ""
}
