// Package feed keeps the short-lived lines of the HUD: the kill feed, chat
// and notices. Lines expire after a time and fade out just before; only the
// newest few are kept. It knows nothing of drawing.
package feed

import "time"

// Tone says how a line should look.
type Tone uint8

// The tones.
const (
	ToneNormal Tone = iota
	ToneSelf        // about the player: their kill, their death, their line
	ToneSystem      // joins, leaves, round changes
)

// Line is one line of a feed.
type Line struct {
	Text string
	Tone Tone
	At   time.Time
}

// Feed is a list of lines that expire.
type Feed struct {
	ttl   time.Duration
	max   int
	lines []Line
}

// FadeTime is how long before expiring a line starts to fade.
const FadeTime = 600 * time.Millisecond

// New returns a feed that keeps at most max lines, each for ttl.
func New(max int, ttl time.Duration) *Feed {
	return &Feed{ttl: ttl, max: max, lines: make([]Line, 0, max)}
}

// Push adds a line at time at, dropping the oldest beyond the limit.
func (f *Feed) Push(at time.Time, text string, tone Tone) {
	if f.max <= 0 {
		return
	}
	if len(f.lines) == f.max {
		copy(f.lines, f.lines[1:])
		f.lines = f.lines[:len(f.lines)-1]
	}
	f.lines = append(f.lines, Line{Text: text, Tone: tone, At: at})
}

// Lines drops the lines expired at now and returns the rest, oldest first.
// The slice is valid until the next Push or Lines.
func (f *Feed) Lines(now time.Time) []Line {
	i := 0
	for i < len(f.lines) && now.Sub(f.lines[i].At) >= f.ttl {
		i++
	}
	if i > 0 {
		n := copy(f.lines, f.lines[i:])
		f.lines = f.lines[:n]
	}
	return f.lines
}

// Alpha returns the opacity, 0..1, of a line at now: 1 until it starts to
// fade, then down to 0 when it expires.
func (f *Feed) Alpha(l Line, now time.Time) float64 {
	left := f.ttl - now.Sub(l.At)
	switch {
	case left <= 0:
		return 0
	case left >= FadeTime:
		return 1
	}
	return float64(left) / float64(FadeTime)
}
