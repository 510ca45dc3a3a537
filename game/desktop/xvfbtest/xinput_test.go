package xvfbtest

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
	"github.com/jezek/xgb/xtest"
)

// xServer is an Xvfb the test drives: it starts the game on it and sends
// it keys and clicks through the XTEST extension, as a player's hands
// would, each step once the game said it saw the one before (-echo-input).
type xServer struct {
	display string
	proc    *exec.Cmd
	conn    *xgb.Conn
	root    xproto.Window
	keys    map[xproto.Keysym]xproto.Keycode
	// echo is the output of the game driven now, which says what its
	// window saw (-echo-input).
	echo *lockedBuffer
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
	case <-time.After(time.Minute):
		t.Fatal("Xvfb did not start within a minute")
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
	// symBracketRight is "]", symSpace " ", symPeriod ".".
	symBracketRight xproto.Keysym = 0x5d
	symSpace        xproto.Keysym = 0x20
	symPeriod       xproto.Keysym = 0x2e
)

// The XTEST event types.
const (
	xKeyPress      = 2
	xKeyRelease    = 3
	xButtonPress   = 4
	xButtonRelease = 5
	xMotion        = 6
)

// seenWait bounds each wait for the game to say it saw a key or button go
// down or up (-echo-input): far longer than any frame of a busy machine
// takes, so that running out of it means the game stopped reading input.
const seenWait = 20 * time.Second

// windowWait bounds the wait for the game's window: the game builds its
// sprites and, when it hosts, starts a match first.
const windowWait = 2 * time.Minute

func (x *xServer) fake(t *testing.T, typ, detail byte, rx, ry int16) {
	t.Helper()
	if err := xtest.FakeInputChecked(x.conn, typ, detail, 0, x.root, rx, ry, 0).Check(); err != nil {
		t.Fatalf("XTEST: %v", err)
	}
}

// drive sets the game whose input x now drives: its output, where it says
// what it saw (-echo-input).
func (x *xServer) drive(out *lockedBuffer) { x.echo = out }

// waitSaid waits until the game's output holds line more than n times.
func (x *xServer) waitSaid(t *testing.T, line string, n int) {
	t.Helper()
	if x.echo == nil {
		t.Fatal("no game to drive: start it with -echo-input and call drive")
	}
	deadline := time.Now().Add(seenWait)
	for x.said(line) <= n {
		if time.Now().After(deadline) {
			t.Fatalf("the game did not say %q within %v (a press XTEST made that the window never saw); its output:\n%s", line, seenWait, x.echo.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// said counts the lines of the game's output that are line.
func (x *xServer) said(line string) int {
	if x.echo == nil {
		return 0
	}
	return strings.Count(x.echo.String(), line+"\n")
}

// waitLive waits until the game says its scene is on screen.
func (x *xServer) waitLive(t *testing.T) {
	t.Helper()
	x.waitSaid(t, "input: live", 0)
}

// down and up make an XTEST event and wait until the game says it saw it:
// the game reads the devices once a frame, so a key released before the
// frame saw it down is lost, and one pressed again before it saw it up is
// merged with the next press.
func (x *xServer) down(t *testing.T, typ, detail byte, seen string) {
	t.Helper()
	n := x.said(seen)
	x.fake(t, typ, detail, 0, 0)
	x.waitSaid(t, seen, n)
}

// keyCode returns the key of keysym sym and the name the game gives it.
func (x *xServer) keyCode(t *testing.T, sym xproto.Keysym) (byte, string) {
	t.Helper()
	code, ok := x.keys[sym]
	if !ok {
		t.Fatalf("no key for keysym %#x", sym)
	}
	name, ok := keyNames[sym]
	if !ok {
		switch {
		case sym >= 'a' && sym <= 'z':
			name = strings.ToUpper(string(rune(sym)))
		case sym >= '0' && sym <= '9':
			name = "Digit" + string(rune(sym))
		default:
			t.Fatalf("no name for keysym %#x", sym)
		}
	}
	return byte(code), name
}

// keyNames are the names the game gives the keys (ebiten.Key's String)
// that are not a letter or a digit.
var keyNames = map[xproto.Keysym]string{
	symBackSpace:    "Backspace",
	symTab:          "Tab",
	symReturn:       "Enter",
	symEscape:       "Escape",
	symLeft:         "ArrowLeft",
	symRight:        "ArrowRight",
	symDown:         "ArrowDown",
	symF2:           "F2",
	symBracketRight: "BracketRight",
	symSpace:        "Space",
	symPeriod:       "Period",
}

// press presses the key with keysym sym and releases it, each once the
// game saw the step before.
func (x *xServer) press(t *testing.T, sym xproto.Keysym) {
	t.Helper()
	code, name := x.keyCode(t, sym)
	x.down(t, xKeyPress, code, "input: key "+name+" down")
	x.down(t, xKeyRelease, code, "input: key "+name+" up")
}

// typeText types s: lower-case letters and digits only. Each character
// is a press the game saw down and up, so none is lost; the game reads
// the characters themselves from its queue of typed text.
func (x *xServer) typeText(t *testing.T, s string) {
	t.Helper()
	for _, r := range s {
		x.press(t, xproto.Keysym(r)) // Latin-1 keysyms are the characters
	}
}

// click moves the pointer to (px, py) on the screen and clicks the left
// button there. The pointer's move comes before the press in the same
// queue of events, so the frame that sees the press sees it there.
func (x *xServer) click(t *testing.T, px, py int) {
	t.Helper()
	x.fake(t, xMotion, 0, int16(px), int16(py))
	x.down(t, xButtonPress, 1, "input: mouse left down")
	x.down(t, xButtonRelease, 1, "input: mouse left up")
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

// startGame starts the game built at bin on x with args, its config folder
// cfg and working folder dir, its output in out, stopped by SIGTERM when
// ctx ends. The caller drives it (x.drive) once it is started, if at all.
func (x *xServer) startGame(t *testing.T, ctx context.Context, bin, cfg, dir string, args ...string) (*exec.Cmd, *lockedBuffer) {
	t.Helper()
	game := exec.CommandContext(ctx, bin, args...)
	game.Env = x.env(cfg)
	game.Dir = dir
	out := new(lockedBuffer)
	game.Stdout, game.Stderr = out, out
	game.Cancel = func() error { return game.Process.Signal(syscall.SIGTERM) }
	game.WaitDelay = 5 * time.Second
	if err := game.Start(); err != nil {
		t.Fatal(err)
	}
	return game, out
}
