package xvfbtest

import (
	"bufio"
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sightline-game/sightline/internal/testnet"
	"github.com/sightline-game/sightline/netcode/lan"
)

// More of the palette, as the menu draws it.
var (
	accentColor = color.RGBA{0xff, 0xc8, 0x3d, 0xff} // "Host a match here", a slow ping
	goodColor   = color.RGBA{0x5e, 0xe3, 0x7a, 0xff} // a LAN ping
)

const matchName = "xvfb test match"

// TestMenuListsALANMatchInXvfb hosts a match in one game (its own Xvfb),
// which announces it on the LAN, and starts another at the menu (-browse)
// on the same machine: the menu hears the beacon through the LAN
// interface's broadcast address, pings the match, and lists it. The menu
// says what it listed on stdout at exit; the screenshot shows the menu.
func TestMenuListsALANMatchInXvfb(t *testing.T) {
	xvfb := needXvfb(t)
	if len(lan.BroadcastAddrs()) == 0 {
		t.Skip("no IPv4 LAN interface to announce a match on")
	}
	begin := time.Now()
	bin := gameBinary(t)
	t.Logf("game built in %v", time.Since(begin).Round(time.Millisecond))
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	port := freeUDPPort(t) // not the default, so a real game nearby does not interfere

	// The host: all interfaces (a loopback-only host is not announced),
	// one bot, few frames; it ends itself, or with the test.
	host := exec.CommandContext(ctx, xvfb, "-a", "-s", "-screen 0 1280x720x24",
		bin, "-host", "-addr", ":0", "-bots", "1", "-seed", "11", "-name", "hoster",
		"-match-name", matchName, "-lan-port", strconv.Itoa(port), "-fps", "5", "-exit-after", "40s")
	host.Dir = dir
	host.Env = append(os.Environ(), "XDG_CONFIG_HOME="+dir) // not the user's settings
	host.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	host.Cancel = func() error { return syscall.Kill(-host.Process.Pid, syscall.SIGTERM) }
	host.WaitDelay = 5 * time.Second
	hostOut := &lockedBuffer{}
	host.Stderr = hostOut
	stdout, err := host.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := host.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		stopped := time.Now()
		syscall.Kill(-host.Process.Pid, syscall.SIGTERM)
		host.Wait()
		t.Logf("host stopped in %v; its output:\n%s", time.Since(stopped).Round(time.Millisecond), hostOut.String())
	}()

	// Wait until the host serves and announces: it prints where to join.
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			hostOut.Write([]byte(sc.Text() + "\n"))
			if strings.HasPrefix(sc.Text(), "players on your LAN:") {
				select {
				case ready <- sc.Text():
				default:
				}
			}
		}
		io.Copy(io.Discard, stdout)
	}()
	select {
	case line := <-ready:
		t.Logf("host up in %v: %s", time.Since(begin).Round(time.Millisecond), line)
	case <-time.After(windowWait):
		t.Fatalf("the host did not say where to join within %v", windowWait)
	}

	shot := filepath.Join(dir, "menu.png")
	browse := exec.CommandContext(ctx, xvfb, "-a", "-s", "-screen 0 1280x720x24",
		bin, "-browse", "-name", "browser", "-lan-port", strconv.Itoa(port), "-fps", "20",
		"-screenshot", shot, "-exit-after", menuDeadline.String(), "-exit-when", "listed=1")
	browse.Dir = dir
	browse.Env = append(os.Environ(), "XDG_CONFIG_HOME="+dir) // not the user's settings
	var out bytes.Buffer
	browse.Stdout, browse.Stderr = &out, &out
	start := time.Now()
	err = browse.Run()
	t.Logf("menu ran %v; output:\n%s", time.Since(start).Round(time.Millisecond), out.String())
	if err != nil {
		t.Fatalf("game -browse under xvfb-run: %v", err)
	}
	if strings.Contains(out.String(), "panic:") {
		t.Fatal("the game panicked")
	}

	// What the menu listed, from its report at exit.
	m := regexp.MustCompile(`(?m)^menu: (\d+) matches$`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatal(`no "menu: N matches" line: did the game exit at the menu?`)
	}
	if n, _ := strconv.Atoi(m[1]); n < 1 {
		t.Fatalf("the menu listed %d matches, want the host's", n)
	}
	row := regexp.MustCompile(`(?m)^menu: "` + matchName + `" (\d+)/(\d+) at (http://\S+), ping (.+)$`).FindStringSubmatch(out.String())
	if row == nil {
		t.Fatalf("the menu did not list %q", matchName)
	}
	// The host plays, with one bot: 2 of 16+1+1 players (1 for a moment
	// at the start).
	if (row[1] != "2" && row[1] != "1") || row[2] != "18" {
		t.Errorf("players %s/%s, want 2/18", row[1], row[2])
	}
	ping := regexp.MustCompile(`^(<1|\d+) ms$`).FindStringSubmatch(row[4])
	if ping == nil {
		t.Fatalf("ping %q, want a round trip in ms", row[4])
	}

	data, err := os.ReadFile(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("screenshot is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != width || b.Dy() != height {
		t.Fatalf("screenshot is %dx%d, want %dx%d", b.Dx(), b.Dy(), width, height)
	}
	rtt, _ := strconv.Atoi(ping[1]) // "<1": 0
	checkMenu(t, img, rtt)
}

// menuDeadline bounds the menu's run: it ends as soon as it lists the
// match with a ping (-exit-when listed=1), which takes about 2 s on an idle
// machine.
const menuDeadline = time.Minute

// Where the menu draws: the title, the first row (the match, selected),
// the second (host), with its ping at the right end.
var (
	titleRect    = image.Rect(400, 40, 880, 100)
	firstRowRect = image.Rect(190, 184, 1090, 218)
	hostRowRect  = image.Rect(190, 218, 1090, 252)
	pingRect     = image.Rect(980, 184, 1090, 218)
)

// checkMenu checks that img is the menu with a match listed first: the
// title, a selected first row with text in the selection's color, the host
// row under it, and its ping of rtt ms in the colour the menu grades it
// with: green under 50 ms (a LAN's, unless the machine is busy), amber
// under 150, red beyond. How long the round trip took is not judged.
func checkMenu(t *testing.T, img image.Image, rtt int) {
	t.Helper()
	count := func(r image.Rectangle, want color.RGBA) int {
		n := 0
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				cr, cg, cb, _ := img.At(x, y).RGBA()
				if near(color.RGBA{uint8(cr >> 8), uint8(cg >> 8), uint8(cb >> 8), 0xff}, want, 6) {
					n++
				}
			}
		}
		return n
	}
	pingName, pingColor := "green ping", goodColor
	switch {
	case rtt >= 150:
		pingName, pingColor = "red ping", bannerColor
	case rtt >= 50:
		pingName, pingColor = "amber ping", accentColor
	}
	t.Logf("figure menu: ping %d ms", rtt)
	for _, c := range []struct {
		what string
		r    image.Rectangle
		c    color.RGBA
		min  int
	}{
		{"title", titleRect, selfColor, 1500},
		{"selected match row text", firstRowRect, selfColor, 150},
		{"host row", hostRowRect, accentColor, 80},
		{pingName, pingRect, pingColor, 15},
	} {
		n := count(c.r, c.c)
		t.Logf("%-24s %5d px", c.what, n)
		if n < c.min {
			t.Errorf("%d pixels of the %s color in %v, want at least %d", n, c.what, c.r, c.min)
		}
	}
}

// freeUDPPort returns a UDP port nothing listens on now.
func freeUDPPort(t *testing.T) int {
	t.Helper()
	pc, err := net.ListenPacket("udp4", ":0")
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	return pc.LocalAddr().(*net.UDPAddr).Port
}

// lockedBuffer is a buffer a program or a logger writes while the test reads it.
type lockedBuffer = testnet.LockedBuffer
