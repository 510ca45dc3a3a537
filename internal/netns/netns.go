package netns

import (
	"context"
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// NAT is the kind of router a site sits behind.
type NAT int

const (
	// Public: no router; the machine has the public address.
	Public NAT = iota
	// OneToOne: a cloud's 1:1 NAT in front of 10.0.0.2.
	OneToOne
	// Home: a home router's masquerade and stateful firewall.
	Home
	// Symmetric: masquerade with a random port for every flow.
	Symmetric
	// HomeNoUDP: Home, dropping every UDP datagram from the LAN.
	HomeNoUDP
)

func (n NAT) String() string {
	switch n {
	case Public:
		return "public"
	case OneToOne:
		return "1:1 NAT"
	case Home:
		return "home NAT"
	case Symmetric:
		return "symmetric NAT"
	case HomeNoUDP:
		return "home NAT without UDP"
	}
	return fmt.Sprintf("NAT(%d)", int(n))
}

// The inside of every NAT site.
var (
	// InsideIP is the address of the machine behind a router.
	InsideIP = netip.MustParseAddr("10.0.0.2")
	// RouterLANIP is the router's address on the LAN.
	RouterLANIP = netip.MustParseAddr("10.0.0.1")
)

// RequireEnv, set to 1, makes New fail where it would skip (no root, no
// ip or nft): for CI, where the namespace tests must run.
const RequireEnv = "SIGHTLINE_REQUIRE_NETNS"

// netSeq tells the networks of one test process apart.
var netSeq atomic.Int32

// Net is one test's network: an internet namespace with a bridge that
// every public address is on, and the sites added to it.
type Net struct {
	t        testing.TB
	ip, nft  string
	prefix   string // of every namespace and veth name
	inet     string // the internet namespace
	mu       sync.Mutex
	made     []string // namespaces, in the order made
	links    int
	sites    []*Site
	setupCtx context.Context
}

// Site is one machine on the test's internet and, unless Public, the
// router in front of it.
type Site struct {
	Name     string
	NAT      NAT
	PublicIP netip.Addr
	// Host is the machine: on the bridge for Public, else at InsideIP.
	Host *Host
	// Router is the router's namespace ("" for Public).
	Router string
	n      *Net
}

// Host is a machine of the test's network.
type Host struct {
	Name string     // the site's name
	NS   string     // its namespace
	IP   netip.Addr // its own interface's address
	n    *Net
}

// New makes an empty network (the internet namespace and its bridge) and
// deletes it, with every site, when the test ends. It skips the test when
// it cannot (not root, no ip or nft), or fails it with RequireEnv set.
func New(t testing.TB) *Net {
	t.Helper()
	skip := func(format string, args ...any) {
		t.Helper()
		if os.Getenv(RequireEnv) == "1" {
			t.Fatalf("netns: "+format, args...)
		}
		t.Skipf("netns: "+format, args...)
	}
	if os.Geteuid() != 0 {
		skip("needs root to make network namespaces")
	}
	ip, err := exec.LookPath("ip")
	if err != nil {
		skip("needs iproute2's ip: %v", err)
	}
	nft, err := lookNft(t)
	if err != nil {
		skip("needs nftables' nft: %v", err)
	}
	n := &Net{t: t, ip: ip, nft: nft, prefix: fmt.Sprintf("sl%d%c", os.Getpid()%100000, 'a'+rune(netSeq.Add(1)%26)), setupCtx: context.Background()}
	t.Cleanup(n.cleanup)
	n.inet = n.namespace("inet")
	n.run(ip, "-n", n.inet, "link", "add", "br0", "type", "bridge")
	n.run(ip, "-n", n.inet, "link", "set", "br0", "up")
	return n
}

// lookNft finds nft, installing nftables with apt-get once if it is
// missing.
func lookNft(t testing.TB) (string, error) {
	if p, err := exec.LookPath("nft"); err == nil {
		return p, nil
	}
	if _, err := exec.LookPath("apt-get"); err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	for _, args := range [][]string{{"install", "-y", "--no-install-recommends", "nftables"}, {"update"}, {"install", "-y", "--no-install-recommends", "nftables"}} {
		cmd := exec.CommandContext(ctx, "apt-get", append([]string{"-o", "DPkg::Lock::Timeout=60"}, args...)...)
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		out, err := cmd.CombinedOutput()
		t.Logf("$ %s (%v)\n%s", strings.Join(cmd.Args, " "), err, tail(string(out), 2000))
		if p, err := exec.LookPath("nft"); err == nil {
			return p, nil
		}
	}
	return exec.LookPath("nft")
}

// run runs a command of the setup and fails the test if it fails.
func (n *Net) run(name string, args ...string) string {
	n.t.Helper()
	out, err := exec.CommandContext(n.setupCtx, name, args...).CombinedOutput()
	if err != nil {
		n.t.Fatalf("netns: $ %s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// namespace makes a namespace with loopback up and IPv6 off.
func (n *Net) namespace(short string) string {
	n.t.Helper()
	name := n.prefix + "-" + short
	n.run(n.ip, "netns", "add", name)
	n.mu.Lock()
	n.made = append(n.made, name)
	n.mu.Unlock()
	n.run(n.ip, "-n", name, "link", "set", "lo", "up")
	// No IPv6: WebRTC stacks would gather link-local candidates that
	// lead nowhere, and the test's internet is IPv4.
	n.sysctl(name, "net.ipv6.conf.all.disable_ipv6=1")
	n.sysctl(name, "net.ipv6.conf.default.disable_ipv6=1")
	return name
}

// sysctl sets a kernel setting inside namespace ns.
func (n *Net) sysctl(ns, setting string) {
	n.t.Helper()
	n.run(n.ip, "netns", "exec", ns, "sysctl", "-qw", setting)
}

// link joins namespaces a and b with a veth pair, named aName in a and
// bName in b, each up.
func (n *Net) link(a, aName, b, bName string) {
	n.t.Helper()
	n.mu.Lock()
	n.links++
	k := n.links
	n.mu.Unlock()
	// The pair is made with names unique on the machine, then renamed
	// inside each namespace, where only the namespace's names count.
	ta, tb := fmt.Sprintf("%s%da", n.prefix, k), fmt.Sprintf("%s%db", n.prefix, k)
	n.run(n.ip, "link", "add", ta, "netns", a, "type", "veth", "peer", "name", tb, "netns", b)
	n.run(n.ip, "-n", a, "link", "set", ta, "name", aName)
	n.run(n.ip, "-n", b, "link", "set", tb, "name", bName)
	n.run(n.ip, "-n", a, "link", "set", aName, "up")
	n.run(n.ip, "-n", b, "link", "set", bName, "up")
}

// onBridge joins namespace ns to the internet's bridge as interface
// ifname with address addr/24.
func (n *Net) onBridge(ns, ifname string, addr netip.Addr) {
	n.t.Helper()
	n.mu.Lock()
	port := fmt.Sprintf("p%d", len(n.sites))
	n.mu.Unlock()
	n.link(ns, ifname, n.inet, port)
	n.run(n.ip, "-n", n.inet, "link", "set", port, "master", "br0")
	n.run(n.ip, "-n", ns, "addr", "add", addr.String()+"/24", "dev", ifname)
}

// AddSite adds a machine called name (a few letters) with the public
// address publicIP (in 203.0.113.0/24), behind a router of kind nat.
func (n *Net) AddSite(name string, nat NAT, publicIP string) *Site {
	n.t.Helper()
	pub, err := netip.ParseAddr(publicIP)
	if err != nil || !netip.MustParsePrefix("203.0.113.0/24").Contains(pub) {
		n.t.Fatalf("netns: site %s: public address %q is not in 203.0.113.0/24", name, publicIP)
	}
	s := &Site{Name: name, NAT: nat, PublicIP: pub, n: n}
	host := n.namespace(name)
	if nat == Public {
		n.onBridge(host, "eth0", pub)
		s.Host = &Host{Name: name, NS: host, IP: pub, n: n}
	} else {
		s.Router = n.namespace(name + "-r")
		n.onBridge(s.Router, "wan", pub)
		n.link(s.Router, "lan", host, "eth0")
		n.run(n.ip, "-n", s.Router, "addr", "add", RouterLANIP.String()+"/24", "dev", "lan")
		n.run(n.ip, "-n", host, "addr", "add", InsideIP.String()+"/24", "dev", "eth0")
		n.run(n.ip, "-n", host, "route", "add", "default", "via", RouterLANIP.String())
		n.sysctl(s.Router, "net.ipv4.ip_forward=1")
		n.nftScript(s.Router, natRules(nat, pub))
		s.Host = &Host{Name: name, NS: host, IP: InsideIP, n: n}
	}
	n.mu.Lock()
	n.sites = append(n.sites, s)
	n.mu.Unlock()
	return s
}

// natRules is the router's nftables ruleset for kind nat.
func natRules(nat NAT, pub netip.Addr) string {
	var b strings.Builder
	b.WriteString("table ip nat {\n")
	switch nat {
	case OneToOne:
		fmt.Fprintf(&b, "  chain prerouting { type nat hook prerouting priority dstnat; iifname \"wan\" ip daddr %s dnat to %s; }\n", pub, InsideIP)
		fmt.Fprintf(&b, "  chain postrouting { type nat hook postrouting priority srcnat; oifname \"wan\" ip saddr %s snat to %s; }\n", InsideIP, pub)
		b.WriteString("}\n")
		return b.String()
	case Symmetric:
		b.WriteString("  chain prerouting { type nat hook prerouting priority dstnat; }\n")
		b.WriteString("  chain postrouting { type nat hook postrouting priority srcnat; oifname \"wan\" masquerade random,fully-random; }\n")
	default:
		b.WriteString("  chain prerouting { type nat hook prerouting priority dstnat; }\n")
		b.WriteString("  chain postrouting { type nat hook postrouting priority srcnat; oifname \"wan\" masquerade; }\n")
	}
	b.WriteString("}\n")
	b.WriteString("table inet filter {\n  chain forward {\n    type filter hook forward priority filter; policy accept;\n")
	if nat == HomeNoUDP {
		b.WriteString("    iifname \"lan\" meta l4proto udp counter drop comment \"no UDP out\"\n")
	}
	b.WriteString("    iifname \"wan\" ct state established,related accept\n")
	b.WriteString("    iifname \"wan\" ct status dnat accept\n")
	b.WriteString("    iifname \"wan\" counter drop comment \"unsolicited\"\n")
	b.WriteString("  }\n")
	// Nothing from the WAN is for the router itself but replies. Without
	// this, a peer's datagram that arrives before the inside has sent it
	// one (the first move of hole punching) would be taken in by the
	// router, its conntrack entry would hold the mapping's address and
	// port, and the inside's own datagram to that peer would then get
	// another port: the hole would never open.
	b.WriteString("  chain input {\n    type filter hook input priority filter; policy accept;\n")
	b.WriteString("    iifname \"wan\" ct state established,related accept\n")
	b.WriteString("    iifname \"wan\" counter drop comment \"unsolicited, for the router\"\n")
	b.WriteString("  }\n}\n")
	return b.String()
}

// nftScript loads an nftables script into namespace ns.
func (n *Net) nftScript(ns, script string) {
	n.t.Helper()
	cmd := exec.CommandContext(n.setupCtx, n.ip, "netns", "exec", ns, n.nft, "-f", "-")
	cmd.Stdin = strings.NewReader(script)
	if out, err := cmd.CombinedOutput(); err != nil {
		n.t.Fatalf("netns: nft -f in %s: %v\n%s\nscript:\n%s", ns, err, out, script)
	}
}

// Forward forwards the router's public port (proto "udp" or "tcp") to the
// machine inside, as a player opening a port on a home router would.
func (s *Site) Forward(proto string, port int) {
	s.n.t.Helper()
	if s.Router == "" || s.NAT == OneToOne {
		s.n.t.Fatalf("netns: Forward on %s (%v): only a home or symmetric NAT forwards ports", s.Name, s.NAT)
	}
	s.n.nftScript(s.Router, fmt.Sprintf("add rule ip nat prerouting iifname \"wan\" %s dport %d dnat to %s\n", proto, port, InsideIP))
}

// Dropped returns how many packets the router's firewall dropped (the
// counters of its drop rules), for asserting that a path was blocked.
func (s *Site) Dropped() int {
	if s.Router == "" || s.NAT == OneToOne {
		return 0
	}
	out, err := exec.Command(s.n.ip, "netns", "exec", s.Router, s.n.nft, "list", "chain", "inet", "filter", "forward").CombinedOutput()
	if err != nil {
		return 0
	}
	total := 0
	for line := range strings.Lines(string(out)) {
		if !strings.Contains(line, "drop") {
			continue
		}
		f := strings.Fields(line)
		for i := range len(f) - 1 {
			if f[i] == "packets" {
				var v int
				fmt.Sscan(f[i+1], &v)
				total += v
			}
		}
	}
	return total
}

// Command returns the command that runs name with args inside the host's
// namespace (ip netns exec, which execs the program itself: the process
// started is the program).
func (h *Host) Command(ctx context.Context, name string, args ...string) *exec.Cmd {
	return exec.CommandContext(ctx, h.n.ip, append([]string{"netns", "exec", h.NS, name}, args...)...)
}

// Dump returns the addresses, routes and rules of every namespace, for a
// failing test's log.
func (n *Net) Dump() string {
	var b strings.Builder
	n.mu.Lock()
	made := append([]string(nil), n.made...)
	n.mu.Unlock()
	for _, ns := range made {
		out, _ := exec.Command(n.ip, "-n", ns, "-br", "addr").CombinedOutput()
		fmt.Fprintf(&b, "== %s\n%s", ns, out)
		out, _ = exec.Command(n.ip, "netns", "exec", ns, n.nft, "list", "ruleset").CombinedOutput()
		b.Write(out)
	}
	return b.String()
}

// cleanup deletes every namespace (which deletes their veth pairs) and
// checks that none is left.
func (n *Net) cleanup() {
	if n.t.Failed() {
		n.t.Logf("netns at the failure:\n%s", tail(n.Dump(), 12000))
	}
	n.mu.Lock()
	made := n.made
	n.made = nil
	n.mu.Unlock()
	for i := len(made) - 1; i >= 0; i-- {
		if out, err := exec.Command(n.ip, "netns", "delete", made[i]).CombinedOutput(); err != nil && !strings.Contains(string(out), "No such file") {
			n.t.Errorf("netns: delete %s: %v\n%s", made[i], err, out)
		}
	}
	out, err := exec.Command(n.ip, "netns", "list").CombinedOutput()
	if err != nil {
		return
	}
	for _, ns := range made {
		if strings.Contains(string(out), ns) {
			n.t.Errorf("netns: namespace %s still there after cleanup", ns)
		}
	}
}

// tail keeps the last n bytes of s.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "...\n" + s[len(s)-n:]
}
