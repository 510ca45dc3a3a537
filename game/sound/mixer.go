package sound

import (
	"math"
	"time"

	"github.com/sightline-game/sightline/assets/sfx"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// Request asks the Player to start one effect.
type Request struct {
	// Voice names this playing effect for Stop; every request has a new one.
	Voice uint64
	Sound Sound
	// Volume is the effect's gain, 0..1: its level, the distance and the
	// volume settings together.
	Volume float64
	// Pan is the stereo position: -1 left, 0 centre, 1 right.
	Pan float64
}

// Player plays what the Mixer asks for: the audio backend.
type Player interface {
	// Play starts an effect. It must not block.
	Play(r Request)
	// Stop ends the voice a Play started, if it still plays.
	Stop(voice uint64)
}

// Defaults of Config.
const (
	DefaultRadius    = 900 // px
	DefaultVoices    = 12
	DefaultRetrigger = 40 * time.Millisecond
)

// minVolume is the quietest request worth playing.
const minVolume = 0.01

// Config sets up a Mixer. The zero Config takes the defaults.
type Config struct {
	// Radius is the hearing radius in world px: a source this far from
	// the listener or farther is not heard (default DefaultRadius).
	Radius float64
	// Voices caps the effects playing at once (default DefaultVoices).
	Voices int
	// Retrigger is the shortest time between two starts of the same
	// effect (default DefaultRetrigger); the later one is dropped.
	Retrigger time.Duration
	// Lengths are the effects' durations, for counting voices (default:
	// the lengths of the files in package assets).
	Lengths [NumSounds]time.Duration
}

// voice is an effect the Mixer believes is playing.
type voice struct {
	id     uint64
	sound  Sound
	end    time.Time
	volume float64
}

// Mixer decides what plays. Feed it from one goroutine (the game's update
// loop); it allocates nothing per frame once warm.
type Mixer struct {
	out Player
	cfg Config

	master, effects float64
	mute            bool

	// The listener: the own player, once placed.
	lx, ly   float64
	listener bool

	voices  []voice
	nextID  uint64
	started [NumSounds]time.Time // last start of each effect

	world  worldState                   // what the snapshots showed
	hidden func(snapshot.EntityID) bool // projectiles that are the own predicted shots' copies
	recs   recordState                  // what the records held
	events eventState                   // events waiting for a position
}

// New returns a Mixer that plays through out.
func New(out Player, cfg Config) *Mixer {
	if cfg.Radius <= 0 {
		cfg.Radius = DefaultRadius
	}
	if cfg.Voices <= 0 {
		cfg.Voices = DefaultVoices
	}
	if cfg.Retrigger <= 0 {
		cfg.Retrigger = DefaultRetrigger
	}
	lengths := Lengths()
	for s := range cfg.Lengths {
		if cfg.Lengths[s] <= 0 {
			cfg.Lengths[s] = lengths[s]
		}
	}
	m := &Mixer{out: out, cfg: cfg, master: 1, effects: 1, voices: make([]voice, 0, cfg.Voices)}
	m.world.init()
	return m
}

// Reset forgets the match the Mixer followed (its snapshots, records,
// waiting events, listener and own player), keeping the volume settings and
// the voices playing: call it when a new match starts.
func (m *Mixer) Reset() {
	m.world = worldState{}
	m.world.init()
	m.recs = recordState{}
	m.events = eventState{}
	m.listener = false
}

// Lengths returns the duration of every effect, from its recipe (package
// assets/sfx, without synthesizing it); an effect it does not know counts
// as half a second.
func Lengths() [NumSounds]time.Duration {
	var out [NumSounds]time.Duration
	for s := range NumSounds {
		out[s] = 500 * time.Millisecond
		if d, err := sfx.Length(s.String()); err == nil {
			out[s] = d
		}
	}
	return out
}

// SetVolume sets the master and effects volumes (each 0..1, clamped) and
// mute. They apply to effects started from now on.
func (m *Mixer) SetVolume(master, effects float64, mute bool) {
	m.master, m.effects, m.mute = clamp01(master), clamp01(effects), mute
}

// Listen places the listener (the own player) at (x, y) in world px.
func (m *Mixer) Listen(x, y float64) { m.lx, m.ly, m.listener = x, y, true }

// Dash plays the own player's dash starting.
func (m *Mixer) Dash(now time.Time) { m.playCentred(now, Dash, 1) }

// OwnShot plays the own player's shot the moment it is fired (spread: the
// spread gun's fan), centred: the client draws the projectile from the press
// on, and its copy in the snapshots plays nothing (HideShots).
func (m *Mixer) OwnShot(now time.Time, spread bool) {
	if spread {
		m.playCentred(now, Spread, 1)
		return
	}
	m.playCentred(now, Shot, 1)
}

// HideShots tells the Mixer which projectiles in the snapshots are copies of
// shots already played by OwnShot: hidden reports it by entity id (nil: none).
func (m *Mixer) HideShots(hidden func(snapshot.EntityID) bool) { m.hidden = hidden }

// HitConfirm plays the tick that says the own shot hit (a Hit event whose
// attacker is the own player), centred.
func (m *Mixer) HitConfirm(now time.Time) { m.playCentred(now, Confirm, 1) }

// Click plays a menu button.
func (m *Mixer) Click(now time.Time) { m.playCentred(now, Click, 1) }

// Voices returns the number of effects the Mixer believes are playing at
// now.
func (m *Mixer) Voices(now time.Time) int {
	m.expire(now)
	return len(m.voices)
}

// spatial returns the volume factor and pan of a source at (x, y): 1 and 0
// at the listener, falling with the square of the distance to 0 at the
// hearing radius, panned by the horizontal offset over the radius.
func (m *Mixer) spatial(x, y float64) (gain, pan float64) {
	if !m.listener {
		return 0, 0
	}
	r := m.cfg.Radius
	dx, dy := x-m.lx, y-m.ly
	d := math.Hypot(dx, dy)
	if d >= r {
		return 0, 0
	}
	f := 1 - d/r
	return f * f, max(-1, min(1, dx/r))
}

// playAt plays s from world position (x, y), scaled by gain.
func (m *Mixer) playAt(now time.Time, s Sound, x, y, gain float64) {
	g, pan := m.spatial(x, y)
	m.play(now, s, gain*g, pan)
}

// playCentred plays s at the listener, scaled by gain.
func (m *Mixer) playCentred(now time.Time, s Sound, gain float64) {
	m.play(now, s, gain, 0)
}

// play applies the effect's level and the volume settings, the retrigger
// limit and the voice cap, and passes the request on.
func (m *Mixer) play(now time.Time, s Sound, gain, pan float64) {
	if m.mute {
		return
	}
	vol := clamp01(gain * level(s) * m.master * m.effects)
	if vol < minVolume {
		return
	}
	if last := m.started[s]; !last.IsZero() && now.Sub(last) < m.cfg.Retrigger {
		return
	}
	m.expire(now)
	if len(m.voices) >= m.cfg.Voices {
		q := 0
		for i := range m.voices {
			if m.voices[i].volume < m.voices[q].volume {
				q = i
			}
		}
		if m.voices[q].volume >= vol {
			return
		}
		m.out.Stop(m.voices[q].id)
		m.voices = append(m.voices[:q], m.voices[q+1:]...)
	}
	m.nextID++
	m.started[s] = now
	m.voices = append(m.voices, voice{id: m.nextID, sound: s, end: now.Add(m.cfg.Lengths[s]), volume: vol})
	m.out.Play(Request{Voice: m.nextID, Sound: s, Volume: vol, Pan: pan})
}

// expire forgets the voices that have ended by now.
func (m *Mixer) expire(now time.Time) {
	k := 0
	for _, v := range m.voices {
		if now.Before(v.end) {
			m.voices[k] = v
			k++
		}
	}
	m.voices = m.voices[:k]
}

func clamp01(v float64) float64 {
	if !(v > 0) { // NaN too
		return 0
	}
	return min(v, 1)
}
