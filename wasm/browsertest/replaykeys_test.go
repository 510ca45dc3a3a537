package browsertest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sightline-game/sightline/netcode/broadcast"
)

const (
	// seekStep is how far Left and Right seek a replay (game/desktop
	// castview.go).
	seekStep = 5 * time.Second
	// pausedFor is how many of the game's updates, each reported to the
	// page (wasm/cast.go), a paused replay's tick is watched for: a
	// quarter of a second's (desktop.UpdateRate is 60), in which a
	// replay playing at 1x delivers 7 ticks, and more when the updates
	// come slower.
	pausedFor = 15
)

// playWithKeys drives the replay rp that the page plays with the keys a
// player uses, checks that each took effect, then lets it play to its
// end at 4x, and returns the page's state there:
//
//   - P pauses: the tick stands still over pausedFor of the game's updates;
//   - ] twice: 4x, paused still (the speed and the HUD's line say so);
//   - Left twice: each seek lands exactly 5 s back (or on the first tick:
//     paused, the clock stands), at 4x, paused, before where it paused;
//   - Right until past the first keyframe after there: each exactly 5 s on;
//   - [ then ]: 2x, then 4x again;
//   - P resumes: the tick moves on from there, to the replay's last.
//
// The seeks go back first: a busy page may have played far into the
// replay, up to its end, before it saw P. It checks that the page
// delivered at least the ticks it played: from the first to where it
// paused, and from where the seeks left it to the last.
func playWithKeys(t *testing.T, tb *tab, rp *broadcast.Replay) replayState {
	t.Helper()
	start := time.Now()
	rate := rp.Header.TickRate
	step := int64(seekStep.Seconds() * rate)
	first, last := int64(rp.FirstTick()), int64(rp.LastTick())

	s := tb.press(t, keyP, "s.replayPaused")
	paused := s.Tick
	s = tb.waitReplay(t, fmt.Sprintf("s.castFrames >= %d", s.Frames+pausedFor), browserWait)
	if !s.Paused || s.Tick != paused || s.Tick == 0 {
		t.Fatalf("paused at tick %d, %d updates later: %+v; want the same tick, paused", paused, pausedFor, s)
	}
	tb.press(t, keyFaster, "s.replaySpeed == 2")
	s = tb.press(t, keyFaster, "s.replaySpeed == 4")
	if s.Speed != 4 || !s.Paused || s.Tick != paused || !strings.HasSuffix(s.Replay, "  4x  paused") {
		t.Fatalf("after ] twice, paused at tick %d: %+v; want 4x, paused at the same tick, the HUD's line saying so", paused, s)
	}

	seek := func(k key, name string, d int64) {
		t.Helper()
		want := uint32(min(max(int64(s.Tick)+d, first), last))
		seeks := s.Seeks + 1
		s = tb.press(t, k, fmt.Sprintf("s.seeks >= %d", seeks))
		if s.Tick != want || !s.Paused || s.Speed != 4 || s.Seeks != seeks {
			t.Fatalf("%s (seek %d): %+v; want tick %d, paused at 4x, %d seeks", name, seeks, s, want, seeks)
		}
	}
	seek(keyLeft, "Left", -step)
	seek(keyLeft, "Left", -step)
	if s.Tick >= paused && paused > rp.FirstTick() {
		t.Fatalf("Left twice: at tick %d; want before %d, where it paused", s.Tick, paused)
	}
	back := s.Tick
	key := nextKeyframe(rp, back)
	if key == 0 {
		t.Fatalf("the replay has no keyframe after tick %d: make it longer", back)
	}
	for s.Tick < key {
		seek(keyRight, "Right", step)
	}
	from := s.Tick
	t.Logf("paused at tick %d; Left twice: at tick %d; Right %d times: at tick %d, past the keyframe at %d", paused, back, s.Seeks-2, from, key)
	if s = tb.press(t, keySlower, "s.replaySpeed == 2"); s.Speed != 2 || !strings.Contains(s.Replay, "  2x") {
		t.Fatalf("after [: %+v; want 2x", s)
	}
	tb.press(t, keyFaster, "s.replaySpeed == 4")

	s = tb.press(t, keyP, "!s.replayPaused")
	s = tb.waitReplay(t, fmt.Sprintf("s.replayTick > %d", from), browserWait)
	if s.Paused || s.Speed != 4 {
		t.Fatalf("after P again: %+v; want playing at 4x", s)
	}
	t.Logf("resumed at 4x: at tick %d, %v after the first key", s.Tick, time.Since(start).Round(100*time.Millisecond))
	rest := time.Duration(float64(last-int64(s.Tick)) / rate / 4 * float64(time.Second))
	ended := time.Now()
	s = tb.waitReplay(t, "s.replayEnded", rest+browserWait)
	t.Logf("played to its end (%v of the replay at 4x) in %v", rest.Round(100*time.Millisecond), time.Since(ended).Round(100*time.Millisecond))
	if played := uint64(int64(paused)-first+1) + uint64(last-int64(from)); s.Played < played {
		t.Errorf("the page delivered %d ticks; want %d or more: ticks %d to %d, then %d to %d", s.Played, played, first, paused, from+1, last)
	}
	return s
}

// nextKeyframe returns the tick of rp's first keyframe after tick, or 0.
func nextKeyframe(rp *broadcast.Replay, tick uint32) uint32 {
	for i := range rp.Chunks() {
		if h, _ := rp.Chunk(i); h.Kind == broadcast.KindKeyframe && h.First > tick {
			return h.First
		}
	}
	return 0
}
