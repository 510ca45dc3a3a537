// Package audio plays the game's sound effects with Ebitengine's audio
// package: a Sound owns the process's one audio context (44100 Hz), the
// effects decoded once from package assets, and the Mixer (game/sound) that
// decides what plays; it is the Mixer's Player.
//
// Without a sound device (a server, CI, Xvfb) the game plays silent: New
// first checks that the platform can open an output (ALSA on Linux, an
// AudioContext in the browser) and otherwise creates no audio context, logs
// "no sound device: playing silent" once with the reason, and every call
// does nothing. This matters: an Ebitengine audio context that cannot
// reach a device reports the error from the next frame's update, which
// ends the game.
//
// In the browser, audio may only start after a user gesture (a key, a
// click, a touch); Ebitengine resumes its context on the first one. Until
// the context is ready, requests are dropped rather than queued, so nothing
// plays, or bursts out late, before it.
package audio

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"log/slog"
	"math"
	"time"

	eaudio "github.com/hajimehoshi/ebiten/v2/audio"
	"github.com/hajimehoshi/ebiten/v2/audio/wav"
	"github.com/sightline-game/sightline/assets"
	"github.com/sightline-game/sightline/game/sound"
)

// SampleRate is the audio context's rate.
const SampleRate = 44100

// Sound plays the game's effects. Its methods belong to the game's update
// goroutine. A nil *Sound is silent.
type Sound struct {
	log    *slog.Logger
	device bool                       // an output was found (Open opens it)
	ctx    *eaudio.Context            // nil: silent, or not opened yet
	clips  [sound.NumSounds][]float32 // decoded when first needed (Warm, Play)
	failed [sound.NumSounds]bool      // clips that did not decode
	mixer  *sound.Mixer

	voices []playing
	mute   bool
	counts [sound.NumSounds]int // requests by effect, played or not
}

// playing is a voice the backend started.
type playing struct {
	id uint64
	p  *eaudio.Player
}

// New opens the audio output, or finds there is none and plays silent
// (logging why, once, on log). It never fails. Call it once per process:
// Ebitengine allows one audio context.
func New(log *slog.Logger) *Sound {
	s := NewLater(log)
	s.Open()
	return s
}

// NewLater is New with the output opened later, by Open: until then the
// Sound plays nothing, as before a browser's first gesture. Opening Web
// Audio holds a browser's main thread for about 50 ms; the browser build
// opens it once the first frame with the world is on screen, before which
// no sound could play anyway.
func NewLater(log *slog.Logger) *Sound {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Sound{log: log}
	s.mixer = sound.New(s, sound.Config{})
	if err := probeDevice(); err != nil {
		log.Warn("no sound device: playing silent", "err", err)
		return s
	}
	s.device = true
	return s
}

// Open opens the audio output NewLater found, once; it does nothing when
// it is open or there is none.
func (s *Sound) Open() {
	if s == nil || !s.device || s.ctx != nil {
		return
	}
	s.ctx = eaudio.NewContext(SampleRate)
}

// Warm decodes one effect not decoded yet, once the output is ready (in a
// browser, after the player's first key, click or touch): the game calls
// it each frame, so the clips are decoded over the first frames after
// sound may play rather than all at start, where decoding them held a
// browser's main thread for over half a second before signalling could
// begin. A clip that fails to decode stays silent and is logged once.
func (s *Sound) Warm() {
	if s == nil || s.ctx == nil || !s.ctx.IsReady() {
		return
	}
	for n := range sound.NumSounds {
		if s.clips[n] == nil && !s.failed[n] {
			s.load(n)
			return
		}
	}
}

// load decodes effect n into its clip.
func (s *Sound) load(n sound.Sound) {
	clip, err := decode(n)
	if err != nil {
		s.failed[n] = true
		s.log.Warn("sound effect not decoded: it stays silent", "sound", n.String(), "err", err)
		return
	}
	s.clips[n] = clip
}

// Silent reports whether the game plays without sound (no device).
func (s *Sound) Silent() bool { return s == nil || !s.device }

// Mixer returns the Mixer that decides what plays (nil for a nil Sound).
func (s *Sound) Mixer() *sound.Mixer {
	if s == nil {
		return nil
	}
	return s.mixer
}

// SetVolume sets the master and effects volumes (0..1) and mute; muting
// also stops what plays.
func (s *Sound) SetVolume(master, effects float64, mute bool) {
	if s == nil {
		return
	}
	s.mixer.SetVolume(master, effects, mute)
	s.mute = mute
	if mute {
		for _, v := range s.voices {
			v.p.Close()
		}
		s.voices = s.voices[:0]
	}
}

// Click plays a menu button's click.
func (s *Sound) Click() {
	if s != nil {
		s.mixer.Click(time.Now())
	}
}

// Play starts an effect (sound.Player): a new Ebitengine player reading the
// decoded clip through a panning reader, at the request's volume. Requests
// before the context is ready (in a browser, before the first gesture) are
// dropped.
func (s *Sound) Play(r sound.Request) {
	if r.Sound < sound.NumSounds {
		s.counts[r.Sound]++
	}
	if s.ctx == nil || s.mute || r.Sound >= sound.NumSounds || !s.ctx.IsReady() {
		return
	}
	if s.clips[r.Sound] == nil {
		if s.failed[r.Sound] {
			return
		}
		s.load(r.Sound) // not warmed yet: decode it now
		if s.clips[r.Sound] == nil {
			return
		}
	}
	s.reap()
	left, right := panGains(r.Pan)
	p, err := s.ctx.NewPlayerF32(&panReader{clip: s.clips[r.Sound], left: left, right: right})
	if err != nil {
		s.log.Debug("sound not played", "sound", r.Sound.String(), "err", err)
		return
	}
	p.SetVolume(r.Volume)
	p.Play()
	s.voices = append(s.voices, playing{id: r.Voice, p: p})
}

// Stop ends a voice (sound.Player).
func (s *Sound) Stop(voice uint64) {
	for i, v := range s.voices {
		if v.id == voice {
			v.p.Close()
			s.voices = append(s.voices[:i], s.voices[i+1:]...)
			return
		}
	}
}

// Counts returns how many times the Mixer asked for each effect, heard or
// not (silent, muted or before the browser's first gesture).
func (s *Sound) Counts() [sound.NumSounds]int {
	if s == nil {
		return [sound.NumSounds]int{}
	}
	return s.counts
}

// LogCounts logs, at info level, how many times each effect was asked for
// (say, when the game ends).
func (s *Sound) LogCounts() {
	if s == nil {
		return
	}
	attrs := make([]any, 0, 2*sound.NumSounds+2)
	attrs = append(attrs, "silent", s.Silent())
	for n, c := range s.counts {
		attrs = append(attrs, sound.Sound(n).String(), c)
	}
	s.log.Info("sound effects requested", attrs...)
}

// reap closes the players that have finished.
func (s *Sound) reap() {
	k := 0
	for _, v := range s.voices {
		if v.p.IsPlaying() {
			s.voices[k] = v
			k++
		} else {
			v.p.Close()
		}
	}
	clear(s.voices[k:])
	s.voices = s.voices[:k]
}

// panGains are the left and right gains of a pan (-1..1): the near side at
// full level, the far side falling linearly to nothing at a full pan, so a
// centred sound keeps its full level in both ears.
func panGains(pan float64) (left, right float32) {
	pan = max(-1, min(1, pan))
	return float32(min(1, 1-pan)), float32(min(1, 1+pan))
}

// decode reads an effect from package assets as mono float samples at
// SampleRate (Ebitengine's decoder resamples and makes stereo; the
// channels are equal and one is kept).
func decode(n sound.Sound) ([]float32, error) {
	b, err := assets.Sound(n.String())
	if err != nil {
		return nil, err
	}
	st, err := wav.DecodeWithSampleRate(SampleRate, bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("audio: decoding %s: %w", n, err)
	}
	pcm, err := io.ReadAll(st)
	if err != nil {
		return nil, fmt.Errorf("audio: decoding %s: %w", n, err)
	}
	clip := make([]float32, len(pcm)/4)
	for i := range clip {
		clip[i] = float32(int16(binary.LittleEndian.Uint16(pcm[4*i:]))) / 32768
	}
	return clip, nil
}

// panReader reads a mono clip as 32-bit float little-endian stereo, each
// channel scaled by its gain.
type panReader struct {
	clip        []float32
	pos         int
	left, right float32
}

func (r *panReader) Read(p []byte) (int, error) {
	if r.pos >= len(r.clip) {
		return 0, io.EOF
	}
	n := 0
	for ; n+8 <= len(p) && r.pos < len(r.clip); n += 8 {
		x := r.clip[r.pos]
		binary.LittleEndian.PutUint32(p[n:], math.Float32bits(x*r.left))
		binary.LittleEndian.PutUint32(p[n+4:], math.Float32bits(x*r.right))
		r.pos++
	}
	return n, nil
}
