package desktop

import (
	"fmt"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/desktop/text"
)

// A replay or a live broadcast is watched as a spectator's match: a Game
// (PlayConfig.Watch) on a client.Cast, which hands the game's unchanged
// client the datagrams a server would and answers the spectator's keys
// (Space, L, F: spectate.go) as a server would. The Game runs on the
// Cast's virtual clock (Config.Now), so that play at 2x or paused moves
// as smoothly as at 1x.
//
//	P          pause, resume
//	Left Right back and forward 5 s (a replay)
//	[ ] or - = half and twice the speed, 0.25x to 4x (a replay)
//
// A seek is a new Cast from the keyframe before the tick sought, and a
// new Game on it (a new epoch of the client), swapped in; the speed and
// the pause carry over, and the player followed.

// castSeekStep is how far a seek key moves: Left and Right, or Comma and
// Period (which seek while the arrows fly the free camera).
const castSeekStep = 5 * time.Second

// castHint is the status line's reminder of a replay's keys.
const castHint = "P pause · ← → or , . 5 s · [ ] speed"

// CastView is the scene that plays a broadcast or a replay.
type CastView struct {
	cfg  PlayConfig
	cast *client.Cast
	game *Game

	// The epochs before this one (each seek starts one): their counts.
	before castTotals
	seeks  int
	note   string // why the last seek failed
	drawn  Drawn
}

type castTotals struct {
	played, decoded, castMismatched uint64
	verified, mismatched            uint64
}

// PlayCast returns the scene that plays cast as a spectator (cfg.Watch is
// implied). The scene owns the cast: Close closes it.
func PlayCast(cast *client.Cast, cfg PlayConfig) (*CastView, error) {
	cfg.Watch = true
	if cfg.Status == "" && cast.IsReplay() {
		cfg.Status = castHint
	}
	v := &CastView{cfg: cfg}
	if err := v.start(cast); err != nil {
		return nil, err
	}
	return v, nil
}

// start plays cast in a new Game.
func (v *CastView) start(cast *client.Cast) error {
	cfg := v.cfg
	cfg.Now = cast.Now
	g, err := Play(cast, cfg)
	if err != nil {
		cast.Close()
		return err
	}
	v.cast, v.game = cast, g
	return nil
}

// Cast returns the Cast playing now (a seek replaces it).
func (v *CastView) Cast() *client.Cast { return v.cast }

// Game returns the Game playing now (a seek replaces it).
func (v *CastView) Game() *Game { return v.game }

// CastTotals are what a CastView played, over every seek.
type CastTotals struct {
	// Played counts the ticks the Casts delivered (those a seek hands over
	// at once among them); Decoded those their decoders verified against
	// the broadcast's hashes, CastMismatched those that differed.
	Played, Decoded, CastMismatched uint64
	// Verified counts the ticks the game's clients verified,
	// Mismatched those whose world differed from the hash.
	Verified, Mismatched uint64
	// Seeks counts the seeks.
	Seeks int
}

// Totals returns what the view played so far.
func (v *CastView) Totals() CastTotals {
	t := v.now()
	return CastTotals{Played: t.played, Decoded: t.decoded, CastMismatched: t.castMismatched,
		Verified: t.verified, Mismatched: t.mismatched, Seeks: v.seeks}
}

// now returns the totals with the epoch playing now.
func (v *CastView) now() castTotals {
	t := v.before
	ps := v.cast.PlayStats()
	cs := v.game.Client().Stats()
	t.played += ps.Delivered
	t.decoded += ps.Ticks
	t.castMismatched += ps.Mismatched
	t.verified += cs.Verified
	t.mismatched += cs.Mismatched
	return t
}

// Update takes the replay's keys, then updates the game.
func (v *CastView) Update() error {
	g := v.game
	if !g.typing && !g.pause.open() {
		v.keys()
	}
	return v.game.Update()
}

func (v *CastView) keys() {
	c := v.cast
	if inpututil.IsKeyJustPressed(ebiten.KeyP) {
		if c.Paused() {
			c.Resume()
		} else {
			c.Pause()
		}
	}
	if !c.IsReplay() {
		return
	}
	// The free camera flies with WASD or the arrows: then only Comma and
	// Period seek.
	arrows := !v.game.watch.free
	switch {
	case inpututil.IsKeyJustPressed(ebiten.KeyBracketLeft), inpututil.IsKeyJustPressed(ebiten.KeyMinus):
		c.SetSpeed(c.Speed() / 2)
	case inpututil.IsKeyJustPressed(ebiten.KeyBracketRight), inpututil.IsKeyJustPressed(ebiten.KeyEqual):
		c.SetSpeed(c.Speed() * 2)
	case inpututil.IsKeyJustPressed(ebiten.KeyComma), arrows && inpututil.IsKeyJustPressed(ebiten.KeyArrowLeft):
		v.Seek(-castSeekStep)
	case inpututil.IsKeyJustPressed(ebiten.KeyPeriod), arrows && inpututil.IsKeyJustPressed(ebiten.KeyArrowRight):
		v.Seek(castSeekStep)
	}
}

// Seek moves a replay by d (back when negative), within its span: a new
// Cast and Game from there.
func (v *CastView) Seek(d time.Duration) {
	c := v.cast
	first, last := c.Span()
	target := int64(c.Tick()) + int64(d.Seconds()*c.TickRate())
	target = min(max(target, int64(first)), int64(last))
	v.SeekTo(uint32(target))
}

// SeekTo moves a replay to tick: a new Cast and Game from there, swapped
// in for the ones playing.
func (v *CastView) SeekTo(tick uint32) {
	next, err := v.cast.Seek(tick)
	if err == nil {
		before := v.now()
		old := v.game
		following, free := v.cast.Following()
		v.cfg.Logger.Info("replay: seek", "tick", tick, "following", following, "free_camera", free)
		v.cfg.Follow = 0 // the new Cast follows whom the old one did
		if err = v.start(next); err == nil {
			v.before = before
			v.seeks++
			if w := old.watch; w.free { // the free camera stays where it was
				g := v.game
				g.watch.free, g.watch.x, g.watch.y = true, w.x, w.y
				g.flyTo(g.cfg.Now(), true)
			}
			old.Close()
			v.note = ""
			return
		}
	}
	v.note = "seek failed: " + err.Error()
	v.cfg.Logger.Warn("replay: seek", "tick", tick, "err", err)
}

// Draw draws the game and the replay's line.
func (v *CastView) Draw(screen *ebiten.Image) {
	v.game.Draw(screen)
	v.drawLine(screen)
}

// CastLine is the HUD's line of where a replay or broadcast is: "replay
// 1:23 / 2:00  2x  paused".
func CastLine(c *client.Cast) string {
	rate := c.TickRate()
	first, last := c.Span()
	at := c.Tick()
	if at < first {
		at = first
	}
	s := "live broadcast"
	if c.IsReplay() {
		s = fmt.Sprintf("replay %s / %s", mmss(float64(at-first)/rate), mmss(float64(last-first)/rate))
	} else if at > 0 {
		s += "  " + mmss(float64(at-first)/rate)
	}
	if sp := c.Speed(); sp != 1 {
		s += "  " + speedText(sp)
	}
	switch {
	case c.Paused():
		s += "  paused"
	case c.Ended():
		s += "  ended"
	}
	return s
}

func mmss(sec float64) string {
	n := int(sec)
	return fmt.Sprintf("%d:%02d", n/60, n%60)
}

func speedText(s float64) string {
	if s < 1 {
		return fmt.Sprintf("%gx", s)
	}
	return fmt.Sprintf("%.0fx", s)
}

// drawLine draws the replay's line and a bar of how far it is, under the
// spectator's panel.
func (v *CastView) drawLine(dst *ebiten.Image) {
	c := v.cast
	f := v.game.fonts
	line := CastLine(c)
	x, y, w, h := 12.0, 82.0, 300.0, 44.0
	panel(dst, x, y, w, h)
	col := colText
	if c.Paused() {
		col = colAccent
	}
	drawText(dst, line, f.normal, x+12, y+7, text.AlignStart, col)
	first, last := c.Span()
	if c.IsReplay() && last > first {
		at := min(max(c.Tick(), first), last)
		bw := w - 24
		box(dst, x+12, y+h-12, bw, 4, colPanelEdge)
		box(dst, x+12, y+h-12, bw*float64(at-first)/float64(last-first), 4, colAccent)
	}
	note := v.note
	if err := c.Err(); err != nil && note == "" {
		note = err.Error() // a damaged replay, a broadcast that cannot be fetched
	}
	if note != "" {
		if r := []rune(note); len(r) > 90 {
			note = string(r[:90]) + "…"
		}
		drawText(dst, note, f.small, x+12, y+h+6, text.AlignStart, colBad)
	}
	t := v.now()
	v.drawn = *v.game.LastDrawn()
	v.drawn.Replay = &DrawnReplay{
		Line: line, Tick: c.Tick(), First: first, Last: last, Speed: c.Speed(), Paused: c.Paused(), Ended: c.Ended(),
		Played: t.played, Decoded: t.decoded, CastMismatched: t.castMismatched,
		Verified: t.verified, Mismatched: t.mismatched, Seeks: v.seeks,
	}
	if err := c.Err(); err != nil {
		v.drawn.Replay.Err = err.Error()
	}
}

// LastDrawn returns what the last frame drew: the game's, with the
// replay's state.
func (v *CastView) LastDrawn() *Drawn { return &v.drawn }

// Layout is the game's.
func (v *CastView) Layout(outsideWidth, outsideHeight int) (int, int) {
	return v.game.Layout(outsideWidth, outsideHeight)
}

// Live reports whether the game drew the match.
func (v *CastView) Live() bool { return v.game.Live() }

// Next returns the scene after the spectator left (the pause menu's
// Leave), for App.
func (v *CastView) Next() Scene { return v.game.Next() }

// Close closes the game and its Cast.
func (v *CastView) Close() { v.game.Close() }
