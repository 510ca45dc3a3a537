package xvfbtest

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
	"github.com/jezek/xgb/xtest"
)

// xServer is an Xvfb the test drives: it starts the game on it and sends
// it keys and clicks through the XTEST extension, as a player's hands
// would.
type xServer struct {
	display string
	proc    *exec.Cmd
	conn    *xgb.Conn
	root    xproto.Window
	keys    map[xproto.Keysym]xproto.Keycode
}

// startX starts Xvfb on a free display (-displayfd) and connects to it.
func startX(t *testing.T, ctx context.Context) *xServer {
	t.Helper()
	bin, err := exec.LookPath("Xvfb")
	if err != nil {
		t.Fatal("Xvfb not found: apt-get install -y xvfb")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	// fd 3 in the child is ExtraFiles[0].
	proc := exec.CommandContext(ctx, bin, "-displayfd", "3", "-screen", "0", "1280x720x24", "-nolisten", "tcp")
	proc.ExtraFiles = []*os.File{w}
	if err := proc.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	x := &xServer{proc: proc}
	t.Cleanup(func() {
		if x.conn != nil {
			x.conn.Close()
		}
		proc.Process.Kill()
		proc.Wait()
	})
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(r).ReadString('\n')
		r.Close()
		line <- strings.TrimSpace(s)
	}()
	select {
	case n := <-line:
		if n == "" {
			t.Fatal("Xvfb said no display number")
		}
		x.display = ":" + n
	case <-time.After(20 * time.Second):
		t.Fatal("Xvfb did not start within 20 s")
	}
	x.conn, err = xgb.NewConnDisplay(x.display)
	if err != nil {
		t.Fatalf("connecting to Xvfb %s: %v", x.display, err)
	}
	if err := xtest.Init(x.conn); err != nil {
		t.Fatalf("no XTEST on Xvfb: %v", err)
	}
	setup := xproto.Setup(x.conn)
	x.root = setup.DefaultScreen(x.conn).Root
	first, last := setup.MinKeycode, setup.MaxKeycode
	km, err := xproto.GetKeyboardMapping(x.conn, first, byte(last-first+1)).Reply()
	if err != nil {
		t.Fatal(err)
	}
	x.keys = make(map[xproto.Keysym]xproto.Keycode)
	per := int(km.KeysymsPerKeycode)
	for i := 0; i*per < len(km.Keysyms); i++ {
		sym := km.Keysyms[i*per] // unshifted
		if _, ok := x.keys[sym]; !ok && sym != 0 {
			x.keys[sym] = first + xproto.Keycode(i)
		}
	}
	return x
}

// Keysyms of the keys the tests press.
const (
	symBackSpace xproto.Keysym = 0xff08
	symTab       xproto.Keysym = 0xff09
	symReturn    xproto.Keysym = 0xff0d
	symEscape    xproto.Keysym = 0xff1b
	symLeft      xproto.Keysym = 0xff51
	symRight     xproto.Keysym = 0xff53
	symDown      xproto.Keysym = 0xff54
	symF2        xproto.Keysym = 0xffbf
)

// The XTEST event types.
const (
	xKeyPress      = 2
	xKeyRelease    = 3
	xButtonPress   = 4
	xButtonRelease = 5
	xMotion        = 6
)

// hold is how long a key or button stays down, and up after. The game
// reads whether a key is down once a frame, so a press shorter than a
// frame can fall between two; on a busy machine under software rendering a
// frame can take a long while. A hold of 250 ms is still short of the
// game's key repeat (24 ticks at 60 Hz), and the tests check the effect of
// what they press wherever they can see it, pressing again if it was lost.
const hold = 250 * time.Millisecond

func (x *xServer) fake(t *testing.T, typ, detail byte, rx, ry int16) {
	t.Helper()
	if err := xtest.FakeInputChecked(x.conn, typ, detail, 0, x.root, rx, ry, 0).Check(); err != nil {
		t.Fatalf("XTEST: %v", err)
	}
}

// press presses and releases the key with keysym sym.
func (x *xServer) press(t *testing.T, sym xproto.Keysym) {
	t.Helper()
	code, ok := x.keys[sym]
	if !ok {
		t.Fatalf("no key for keysym %#x", sym)
	}
	x.fake(t, xKeyPress, byte(code), 0, 0)
	time.Sleep(hold)
	x.fake(t, xKeyRelease, byte(code), 0, 0)
	time.Sleep(hold / 2)
}

// holdKey holds the key with keysym sym down for d (the game repeats it).
func (x *xServer) holdKey(t *testing.T, sym xproto.Keysym, d time.Duration) {
	t.Helper()
	code, ok := x.keys[sym]
	if !ok {
		t.Fatalf("no key for keysym %#x", sym)
	}
	x.fake(t, xKeyPress, byte(code), 0, 0)
	time.Sleep(d)
	x.fake(t, xKeyRelease, byte(code), 0, 0)
	time.Sleep(hold)
}

// typeText types s: lower-case letters and digits only.
func (x *xServer) typeText(t *testing.T, s string) {
	t.Helper()
	for _, r := range s {
		x.press(t, xproto.Keysym(r)) // Latin-1 keysyms are the characters
	}
}

// click moves the pointer to (px, py) on the screen and clicks the left
// button there.
func (x *xServer) click(t *testing.T, px, py int) {
	t.Helper()
	x.fake(t, xMotion, 0, int16(px), int16(py))
	time.Sleep(hold)
	x.fake(t, xButtonPress, 1, 0, 0)
	time.Sleep(hold)
	x.fake(t, xButtonRelease, 1, 0, 0)
	time.Sleep(hold)
}

// gameWindow waits until a top-level window of class "sightline" is mapped
// and returns where its inside is on the screen.
func (x *xServer) gameWindow(t *testing.T, within time.Duration) (int, int, int, int) {
	t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if ox, oy, w, h, ok := x.findWindow(x.root, 0); ok {
			return ox, oy, w, h
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("no sightline window on %s within %v", x.display, within)
	return 0, 0, 0, 0
}

// findWindow looks for a viewable window of class "sightline" under w.
func (x *xServer) findWindow(w xproto.Window, depth int) (int, int, int, int, bool) {
	tree, err := xproto.QueryTree(x.conn, w).Reply()
	if err != nil || depth > 3 {
		return 0, 0, 0, 0, false
	}
	for _, c := range tree.Children {
		prop, err := xproto.GetProperty(x.conn, false, c, xproto.AtomWmClass, xproto.AtomString, 0, 64).Reply()
		if err == nil && strings.Contains(strings.ToLower(string(prop.Value)), "sightline") {
			attr, err := xproto.GetWindowAttributes(x.conn, c).Reply()
			if err != nil || attr.MapState != xproto.MapStateViewable {
				continue
			}
			g, err := xproto.GetGeometry(x.conn, xproto.Drawable(c)).Reply()
			if err != nil {
				continue
			}
			at, err := xproto.TranslateCoordinates(x.conn, c, x.root, 0, 0).Reply()
			if err != nil {
				continue
			}
			return int(at.DstX), int(at.DstY), int(g.Width), int(g.Height), true
		}
		if ox, oy, ww, hh, ok := x.findWindow(c, depth+1); ok {
			return ox, oy, ww, hh, true
		}
	}
	return 0, 0, 0, 0, false
}

// env returns the environment for a program on this X server, with
// XDG_CONFIG_HOME at cfg.
func (x *xServer) env(cfg string) []string {
	var env []string
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "DISPLAY=") && !strings.HasPrefix(e, "XDG_CONFIG_HOME=") && !strings.HasPrefix(e, "XAUTHORITY=") {
			env = append(env, e)
		}
	}
	return append(env, "DISPLAY="+x.display, "XDG_CONFIG_HOME="+cfg)
}

func (x *xServer) String() string { return fmt.Sprintf("Xvfb %s", x.display) }
