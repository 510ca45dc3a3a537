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
	// OwnShots are the own player's predicted projectiles drawn
	// (smooth.Shots), from the frame of the press on; each is also in Over.
	OwnShots []DrawnShot `json:"own_shots"`
	// SelfWorld is the own player's drawn position in world px: screen
	// px = world px - SelfWorld + Self.At.
	SelfWorld [2]float64 `json:"self_world"`
	// InputSeq is the newest input sent; Applied the newest the server
	// had applied by the newest snapshot.
	InputSeq uint32 `json:"input_seq"`
	Applied  uint32 `json:"applied"`
	// Presses are the latest fire presses that fired a predicted shot,
	// oldest first.
	Presses []DrawnPress `json:"presses"`
	// ShotStats are the predicted shots' counters.
	ShotStats DrawnShotStats `json:"shot_stats"`
	// HitMarker is whether the frame showed the mark of an own hit the
	// server reported.
	HitMarker bool `json:"hit_marker,omitempty"`
	// HowToPlay is whether the frame showed the "how to play" card, and
	// HowToPlayAt where (x, y, w, h).
	HowToPlay   bool       `json:"how_to_play,omitempty"`
	HowToPlayAt [4]float64 `json:"how_to_play_at,omitempty"`
	// JoinHint is how others join, as the frame's status line said it
	// ("" for a match not hosted here).
	JoinHint string `json:"join_hint,omitempty"`
	// Paused is whether the frame showed the pause menu, PauseJoinHint the
	// lines of "how others join" drawn under it.
	Paused        bool     `json:"paused,omitempty"`
	PauseJoinHint []string `json:"pause_join_hint,omitempty"`
	// ConnectStage is the latest stage of the join reached (client.Stages()),
	// ConnectStages every stage reached with its time since the join
	// began, ConnectError the failure shown, cause and what to try (""
	// while none): the connecting screen's, and a match's since it joined.
	ConnectStage  string       `json:"connect_stage,omitempty"`
	ConnectStages []DrawnStage `json:"connect_stages,omitempty"`
	ConnectError  string       `json:"connect_error,omitempty"`
	// Watching is, for a spectator, the HUD's title ("watching NAME",
	// "spectating"); Followed the player the server says it follows (0:
	// none, or a free camera); FollowedAt where that player was drawn, in
	// screen px, and FollowedShown whether that was on the screen.
	Watching      string     `json:"watching,omitempty"`
	Followed      uint32     `json:"followed,omitempty"`
	FollowedAt    [2]float64 `json:"followed_at,omitempty"`
	FollowedShown bool       `json:"followed_shown,omitempty"`
	// PauseCopy is what the pause menu said of the last "Copy join link":
	// "copied: LINK", or why it failed ("" before any).
	PauseCopy string `json:"pause_copy,omitempty"`
	// Replay is a replay's or a broadcast's state (CastView), nil for a
	// match played or watched live.
	Replay *DrawnReplay `json:"replay,omitempty"`
	// Killcam is what the frame's killcam drew (nil: none).
	Killcam *DrawnKillcam `json:"killcam,omitempty"`
	// Draws counts the frame's draw calls for the world (the map's chunks,
	// every sprite, the health bars), before Ebitengine batches them.
	Draws int `json:"draws"`
}

// DrawnReplay is what a CastView's frame showed of its replay, and what it
// played so far, over every seek.
type DrawnReplay struct {
	// Line is the HUD's line ("replay 1:23 / 2:00  2x  paused").
	Line string `json:"line"`
	// Tick is the newest tick delivered; First and Last the span.
	Tick   uint32  `json:"tick"`
	First  uint32  `json:"first"`
	Last   uint32  `json:"last"`
	Speed  float64 `json:"speed"`
	Paused bool    `json:"paused,omitempty"`
	Ended  bool    `json:"ended,omitempty"`
	// Played counts the ticks the Casts delivered, Decoded those they
	// verified against the broadcast's hashes, CastMismatched those that
	// differed; Verified and Mismatched are the game clients' counts.
	Played         uint64 `json:"played"`
	Decoded        uint64 `json:"decoded"`
	CastMismatched uint64 `json:"cast_mismatched"`
	Verified       uint64 `json:"verified"`
	Mismatched     uint64 `json:"mismatched"`
	Seeks          int    `json:"seeks"`
	// Err is the Cast's trouble, if any (client.Cast.Err).
	Err string `json:"err,omitempty"`
}

// DrawnKillcam is a killcam's frame (killcamview.go).
type DrawnKillcam struct {
	// Phase is "replay" (the seconds before the blow) or "verdict" (the
	// fatal moment, held, with both markers).
	Phase string `json:"phase"`
	// Killer, Victim, Tick, EventX, EventY and Behind are the kill event's
	// (EventX, EventY: the judged position in quantized units).
	Killer uint32 `json:"killer"`
	Victim uint32 `json:"victim"`
	Tick   uint32 `json:"tick"`
	EventX uint16 `json:"event_x"`
	EventY uint16 `json:"event_y"`
	Behind uint16 `json:"behind"`
	// ReplayTick is the server time shown (ticks), View the killer's view
	// of the others then.
	ReplayTick float64 `json:"replay_tick"`
	View       float64 `json:"view"`
	BehindMs   float64 `json:"behind_ms"`
	// JudgedWorld and JudgedAt are where the "on their screen" marker was
	// drawn, in world and screen px (verdict only); OwnWorld and OwnAt the
	// "on your screen" marker, if OwnShown.
	JudgedWorld [2]float64 `json:"judged_world"`
	JudgedAt    [2]float64 `json:"judged_at"`
	OwnWorld    [2]float64 `json:"own_world"`
	OwnAt       [2]float64 `json:"own_at"`
	OwnShown    bool       `json:"own_shown,omitempty"`
	// Title and Verdict are the text shown.
	Title   string `json:"title"`
	Verdict string `json:"verdict"`
	// Verdicts counts the frames that have drawn a verdict since the game
	// began.
	Verdicts int `json:"verdicts"`
}

// DrawnStage is a stage of the join reached.
type DrawnStage struct {
	Stage  string  `json:"stage"`            // its name (client.Stages())
	Detail string  `json:"detail,omitempty"` // the path tried or taken, the ICE servers fetched
	Ms     float64 `json:"ms"`               // since the join began
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

// DrawnShot is one of the own predicted projectiles drawn.
type DrawnShot struct {
	At        [2]float64 `json:"at"`      // screen px of the bolt's core
	Seq       uint32     `json:"seq"`     // the input that fired it
	Pellet    int        `json:"pellet"`  // 0, or the spread fan's pellet
	Heading   float64    `json:"heading"` // radians
	Opacity   float64    `json:"opacity"` // 1, falling while a rejected shot fades
	Confirmed bool       `json:"confirmed,omitempty"`
	Rejected  bool       `json:"rejected,omitempty"`
}

// DrawnPress is a fire press that fired a predicted shot.
type DrawnPress struct {
	Seq    uint32 `json:"seq"` // the input that carried it
	Spread bool   `json:"spread,omitempty"`
	// DrawnAfter is how many frames after the press its bolt was first
	// drawn: 0 for the first frame drawn after the press's Update; -1
	// while never (a wall at the muzzle stops it at once).
	DrawnAfter int `json:"drawn_after"`
	// FirstDist is how far (px) from the own player the bolt was first
	// drawn.
	FirstDist float64 `json:"first_dist"`
	// FirstInputs is how many inputs after the press's own were sent
	// before that frame: each moved the bolt a tick of flight on (a busy
	// machine sends several inputs in one frame to keep up with the
	// server's ticks).
	FirstInputs int `json:"first_inputs"`
	// FirstError is how far (px) the own player was drawn that frame from
	// where the prediction simulates it: a correction from the server
	// being smoothed away (a busy machine, whose inputs reach the server
	// late, has more of them).
	FirstError float64 `json:"first_error"`
	// ServerAfterMs is how long after the press a snapshot said the server
	// had applied its input, ConfirmedAfterMs how long until the server's
	// copy of the shot was seen (0: not yet).
	ServerAfterMs    float64 `json:"server_after_ms"`
	ConfirmedAfterMs float64 `json:"confirmed_after_ms"`
}

// DrawnShotStats are smooth.ShotStats, with the handover in px.
type DrawnShotStats struct {
	Fired        uint64  `json:"fired"`
	Confirmed    uint64  `json:"confirmed"`
	Rejected     uint64  `json:"rejected"`
	HandoverMean float64 `json:"handover_mean"`
	HandoverMax  float64 `json:"handover_max"`
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
	d.OwnShots, d.HitMarker = d.OwnShots[:0], false
	d.HowToPlay, d.HowToPlayAt, d.JoinHint = false, [4]float64{}, ""
	d.Paused, d.PauseJoinHint, d.PauseCopy = false, d.PauseJoinHint[:0], ""
	d.MapSeed, d.MapOrigin, d.Draws = 0, [2]float64{}, 0
	d.Watching, d.Followed, d.FollowedAt, d.FollowedShown = "", 0, [2]float64{}, false
	d.Killcam = nil
}

// writeJSON writes d to path.
func (d *Drawn) writeJSON(path string) error {
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// setConnectStages records the stages the join of the match went
// through, which every frame's Drawn then carries.
func (g *Game) setConnectStages(stages []DrawnStage) {
	g.drawn.ConnectStages = stages
	if len(stages) > 0 {
		g.drawn.ConnectStage = stages[len(stages)-1].Stage
	}
}

// A reporter is a scene that says what its last frame drew.
type reporter interface {
	LastDrawn() *Drawn
}

// LastDrawn returns what the last frame drew. It is valid until the next.
func (g *Game) LastDrawn() *Drawn { return &g.drawn }
