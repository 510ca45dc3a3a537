package browsertest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// key is a key of the keyboard as the browser's keyboard events name it:
// the game (Ebitengine) reads code.
type key struct {
	key, code string
	vk        int64 // Windows virtual key code
}

// The keys of a replay (game/desktop castview.go).
var (
	keyP      = key{"p", "KeyP", 80}                // pause, resume
	keyLeft   = key{"ArrowLeft", "ArrowLeft", 37}   // back 5 s
	keyRight  = key{"ArrowRight", "ArrowRight", 39} // on 5 s
	keySlower = key{"[", "BracketLeft", 219}        // half the speed
	keyFaster = key{"]", "BracketRight", 221}       // twice the speed
)

// press presses k on the page's canvas as a keyboard does, holds it until
// until (a JavaScript expression of s, the page's window.sightline) holds,
// and lets it go: the game reads the keys once an update, so a key let go
// before an update of a busy page is never seen. It returns the replay's
// state once the game updated after the release (so that the next press
// is a new one to the game).
func (tb *tab) press(t *testing.T, k key, until string) replayState {
	t.Helper()
	start := time.Now()
	ctx, cancel := context.WithTimeout(tb.ctx, 2*browserWait)
	defer cancel()
	// The canvas takes the keys (Ebitengine focuses it on start; a click
	// on the page would do the same).
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(c => (c.focus(), true))(document.querySelector("canvas"))`)); err != nil {
		t.Fatalf("%s: focus the canvas: %v", tb.name, err)
	}
	if err := tb.dispatchKey(ctx, input.DispatchKeyEventTypeKeyDown, k); err != nil {
		t.Fatalf("%s: %v", tb.name, err)
	}
	held := fmt.Sprintf(`(s => (%s) || s.errors.length > 0)(window.sightline)`, until)
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](held,
		chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(browserWait))); err != nil {
		t.Fatalf("%s: %s held down, the page did not come to %s within %v: %v; the page says %+v",
			tb.name, k.key, until, browserWait, err, tb.replay(t))
	}
	if err := tb.dispatchKey(ctx, input.DispatchKeyEventTypeKeyUp, k); err != nil {
		t.Fatalf("%s: %v", tb.name, err)
	}
	at := tb.replay(t).Frames
	s := tb.waitReplay(t, fmt.Sprintf("s.castFrames > %d", at), browserWait)
	t.Logf("%s: %s in %v", tb.name, k.key, time.Since(start).Round(10*time.Millisecond))
	return s
}

// dispatchKey sends one key event of k to the page.
func (tb *tab) dispatchKey(ctx context.Context, typ input.DispatchKeyEventType, k key) error {
	p := input.DispatchKeyEventParams{Type: typ, Key: k.key, Code: k.code, WindowsVirtualKeyCode: k.vk, NativeVirtualKeyCode: k.vk}
	if _, err := chromedp.Call(ctx, input.DispatchKeyEvent, p); err != nil {
		return fmt.Errorf("key %s %s: %w", k.key, typ, err)
	}
	return nil
}

// waitReplay waits up to within until cond (a JavaScript expression of s,
// the page's window.sightline) holds, or the page reports an error, and
// returns the replay's state then.
func (tb *tab) waitReplay(t *testing.T, cond string, within time.Duration) replayState {
	t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, within+browserWait)
	defer cancel()
	expr := fmt.Sprintf(`(s => (%s) || s.errors.length > 0)(window.sightline)`, cond)
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr,
		chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(within))); err != nil {
		t.Fatalf("%s: the page did not come to %s within %v: %v; the page says %+v", tb.name, cond, within, err, tb.replay(t))
	}
	return tb.replay(t)
}
