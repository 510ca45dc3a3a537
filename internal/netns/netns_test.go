package netns

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// The helper roles this test binary plays when re-executed inside a
// namespace (roleEnv names one, argEnv its argument).
const (
	roleEnv = "SIGHTLINE_NETNS_ROLE"
	argEnv  = "SIGHTLINE_NETNS_ARG"
)

// TestHelperProcess is not a test on its own: the tests below run this
// binary again inside a namespace, where it plays one role:
//
//   - udp-echo: answers each datagram on UDP port ARG with the address it
//     came from, "ip:port";
//   - tcp-echo: the same for each connection on TCP port ARG;
//   - udp-ask: sends "?" from one socket to each address of ARG (comma-
//     separated), and prints "from-local PORT" and, per answer, "ADDR saw
//     SEEN" (or "ADDR silent");
//   - tcp-ask: connects to ARG and prints "ADDR saw SEEN" or "ADDR silent".
func TestHelperProcess(t *testing.T) {
	role, arg := os.Getenv(roleEnv), os.Getenv(argEnv)
	switch role {
	case "":
		return
	case "udp-echo":
		pc, err := net.ListenPacket("udp4", ":"+arg)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Println("ready")
		buf := make([]byte, 1500)
		for {
			_, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			pc.WriteTo([]byte(from.String()), from)
		}
	case "tcp-echo":
		ln, err := net.Listen("tcp4", ":"+arg)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Println("ready")
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Write([]byte(c.RemoteAddr().String()))
			c.Close()
		}
	case "udp-ask", "udp-ask-unanswered":
		// Three datagrams, 300 ms apart. Where an answer is expected
		// (udp-ask) it is then awaited up to a hang guard, since a busy
		// machine delays it; where none is (udp-ask-unanswered), load
		// cannot make one come.
		pc, err := net.ListenPacket("udp4", ":0")
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("from-local %d\n", pc.LocalAddr().(*net.UDPAddr).Port)
		for _, to := range strings.Split(arg, ",") {
			addr, _ := net.ResolveUDPAddr("udp4", to)
			seen := "silent"
			buf := make([]byte, 100)
			for i := range 3 {
				pc.WriteTo([]byte("?"), addr)
				wait := 300 * time.Millisecond
				if i == 2 && role == "udp-ask" {
					wait = 2 * time.Minute
				}
				pc.SetReadDeadline(time.Now().Add(wait))
				if n, _, err := pc.ReadFrom(buf); err == nil {
					seen = "saw " + string(buf[:n])
					break
				}
			}
			fmt.Printf("%s %s\n", to, seen)
		}
	case "tcp-ask":
		seen := "silent"
		if c, err := net.DialTimeout("tcp4", arg, 2*time.Minute); err == nil {
			c.SetReadDeadline(time.Now().Add(2 * time.Minute))
			buf := make([]byte, 100)
			if n, err := c.Read(buf); err == nil || n > 0 {
				seen = "saw " + string(buf[:n])
			}
			c.Close()
		}
		fmt.Printf("%s %s\n", arg, seen)
	}
}

// helper runs this binary as role on h; a server role runs until the test
// ends, an asking role to its end, returning its output's lines.
func helper(t *testing.T, h *Host, role, arg string, server bool) []string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // a hang guard
	cmd := h.Command(ctx, self, "-test.run=^TestHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), roleEnv+"="+role, argEnv+"="+arg)
	if !server {
		defer cancel()
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s on %s: %v\n%s", role, arg, h.Name, err, out)
		}
		return strings.Split(strings.TrimSpace(string(out)), "\n")
	}
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		cmd.Wait()
	})
	line, _ := bufio.NewReader(stdout).ReadString('\n')
	if strings.TrimSpace(line) != "ready" {
		t.Fatalf("%s on %s: %q", role, h.Name, line)
	}
	return nil
}

// answer finds what ADDR saw in an asking role's lines: "" if silent.
func answer(t *testing.T, lines []string, addr string) string {
	t.Helper()
	for _, l := range lines {
		if rest, ok := strings.CutPrefix(l, addr+" "); ok {
			seen, _ := strings.CutPrefix(rest, "saw ")
			if rest == "silent" {
				return ""
			}
			return seen
		}
	}
	t.Fatalf("no answer about %s in %q", addr, lines)
	return ""
}

// localPort is the port an asking role sent from.
func localPort(t *testing.T, lines []string) string {
	t.Helper()
	for _, l := range lines {
		if p, ok := strings.CutPrefix(l, "from-local "); ok {
			return p
		}
	}
	t.Fatalf("no local port in %q", lines)
	return ""
}

func TestNATKinds(t *testing.T) {
	n := New(t)
	start := time.Now()
	a := n.AddSite("a", Public, "203.0.113.5")
	b := n.AddSite("b", Public, "203.0.113.6")
	home := n.AddSite("home", Home, "203.0.113.20")
	sym := n.AddSite("sym", Symmetric, "203.0.113.30")
	cloud := n.AddSite("cloud", OneToOne, "203.0.113.40")
	noUDP := n.AddSite("noudp", HomeNoUDP, "203.0.113.50")
	t.Logf("six sites up in %v", time.Since(start).Round(time.Millisecond))
	for _, h := range []*Host{a.Host, b.Host, home.Host, cloud.Host} {
		helper(t, h, "udp-echo", "4000", true)
	}
	helper(t, a.Host, "tcp-echo", "4001", true)
	aUDP, bUDP := "203.0.113.5:4000", "203.0.113.6:4000"

	t.Run("public", func(t *testing.T) {
		out := helper(t, b.Host, "udp-ask", aUDP, false)
		if got, want := answer(t, out, aUDP), "203.0.113.6:"+localPort(t, out); got != want {
			t.Errorf("a saw %q, want %q", got, want)
		}
	})
	t.Run("home keeps the port, for every destination", func(t *testing.T) {
		out := helper(t, home.Host, "udp-ask", aUDP+","+bUDP, false)
		want := "203.0.113.20:" + localPort(t, out)
		if got := answer(t, out, aUDP); got != want {
			t.Errorf("a saw %q, want %q", got, want)
		}
		if got := answer(t, out, bUDP); got != want {
			t.Errorf("b saw %q, want %q", got, want)
		}
	})
	t.Run("symmetric maps each destination apart", func(t *testing.T) {
		out := helper(t, sym.Host, "udp-ask", aUDP+","+bUDP, false)
		sa, sb := answer(t, out, aUDP), answer(t, out, bUDP)
		pa, pb := netip.MustParseAddrPort(sa), netip.MustParseAddrPort(sb)
		if pa.Addr() != sym.PublicIP || pb.Addr() != sym.PublicIP || pa.Port() == pb.Port() {
			t.Errorf("a saw %s and b saw %s: want the site's address with two ports", sa, sb)
		}
	})
	t.Run("home refuses the unsolicited until forwarded", func(t *testing.T) {
		// Addressed to the router itself and mapped to nothing, it ends
		// there (no port is open on the router).
		out := helper(t, a.Host, "udp-ask-unanswered", "203.0.113.20:4000", false)
		if got := answer(t, out, "203.0.113.20:4000"); got != "" {
			t.Errorf("an unsolicited datagram reached the inside: it saw %q", got)
		}
		home.Forward("udp", 4000)
		out = helper(t, a.Host, "udp-ask", "203.0.113.20:4000", false)
		if got, want := answer(t, out, "203.0.113.20:4000"), "203.0.113.5:"+localPort(t, out); got != want {
			t.Errorf("through the forwarded port the inside saw %q, want %q", got, want)
		}
	})
	t.Run("1:1 NAT both ways, ports kept", func(t *testing.T) {
		out := helper(t, a.Host, "udp-ask", "203.0.113.40:4000", false)
		if got, want := answer(t, out, "203.0.113.40:4000"), "203.0.113.5:"+localPort(t, out); got != want {
			t.Errorf("the VM saw %q, want %q", got, want)
		}
		out = helper(t, cloud.Host, "udp-ask", aUDP, false)
		if got, want := answer(t, out, aUDP), "203.0.113.40:"+localPort(t, out); got != want {
			t.Errorf("a saw the VM as %q, want %q", got, want)
		}
	})
	t.Run("no UDP out, TCP passes", func(t *testing.T) {
		out := helper(t, noUDP.Host, "udp-ask-unanswered", aUDP, false)
		if got := answer(t, out, aUDP); got != "" {
			t.Errorf("UDP got out: a saw %q", got)
		}
		if d := noUDP.Dropped(); d < 3 {
			t.Errorf("the router counted %d UDP datagrams dropped, want the 3 sent", d)
		}
		out = helper(t, noUDP.Host, "tcp-ask", "203.0.113.5:4001", false)
		if got := answer(t, out, "203.0.113.5:4001"); !strings.HasPrefix(got, "203.0.113.50:") {
			t.Errorf("over TCP a saw %q, want the site's address", got)
		}
	})
}

// A network's namespaces are gone when its test ends.
func TestCleanup(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root")
	}
	var prefix string
	t.Run("net", func(t *testing.T) {
		n := New(t)
		n.AddSite("x", Home, "203.0.113.9")
		prefix = n.prefix + "-"
	})
	out, err := exec.Command("ip", "netns", "list").CombinedOutput()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), prefix) {
		t.Errorf("namespaces %s* left:\n%s", prefix, out)
	}
}
