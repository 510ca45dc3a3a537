package xvfbtest

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// TestHostTakesAnotherUDPPortWhenTaken holds a UDP port, as a second host
// on the same machine would, and hosts a match asking for it (-udp-port):
// the game still hosts, on another port, and its warning names both.
func TestHostTakesAnotherUDPPortWhenTaken(t *testing.T) {
	xvfb := needXvfb(t)
	bin := gameBinary(t)
	held, err := net.ListenUDP("udp", &net.UDPAddr{})
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	port := held.LocalAddr().(*net.UDPAddr).Port
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir := t.TempDir()
	run := exec.CommandContext(ctx, xvfb, "-a", "-s", "-screen 0 1280x720x24", bin, "-host", "-addr", "127.0.0.1:0",
		"-udp-port", strconv.Itoa(port), "-announce=false", "-bots", "0", "-fps", "20", "-exit-after", "1s", "-log-level", "info")
	run.Dir = dir
	run.Env = append(os.Environ(), "XDG_CONFIG_HOME="+dir)
	var out bytes.Buffer
	run.Stdout, run.Stderr = &out, &out
	if err := run.Run(); err != nil {
		t.Fatalf("game under xvfb-run: %v\n%s", err, out.String())
	}
	warn := regexp.MustCompile(`level=WARN msg="UDP port taken[^"]*" wanted=` + strconv.Itoa(port) + ` took=(\d+)`).FindStringSubmatch(out.String())
	if warn == nil {
		t.Fatalf("no warning that UDP port %d was taken; output:\n%s", port, out.String())
	}
	took, _ := strconv.Atoi(warn[1])
	if took == port || took == 0 {
		t.Fatalf("took port %d with %d held", took, port)
	}
	if want := fmt.Sprintf("udp_port=%d", took); !bytes.Contains(out.Bytes(), []byte(want)) {
		t.Errorf("the match does not host on the port the warning names (%s); output:\n%s", want, out.String())
	}
	t.Logf("held %d; the host took %d", port, took)
}
