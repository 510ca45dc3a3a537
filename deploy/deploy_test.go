package deploy

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

// What a check of the deployment finds wrong, one error per kind of fault.
var (
	errManifest  = errors.New("manifest kind or apiVersion is not the expected one")
	errFlag      = errors.New("server flag unknown or not parsing")
	errPort      = errors.New("ports disagree")
	errHealth    = errors.New("health settings do not fit the server's health period")
	errRoot      = errors.New("image or pod may run as root")
	errBuild     = errors.New("server build is not static and stripped")
	errImage     = errors.New("image reference or entrypoint is wrong")
	errAutoscale = errors.New("autoscaler does not fit the fleet")
)

// The Agones flags of cmd/server the fleet passes.
const (
	agonesFlag       = "agones"
	agonesHealthFlag = "agones-health"
)

// --- the manifests, as much of them as the checks read ----------------------

type meta struct {
	Name string `yaml:"name"`
}

type gsPort struct {
	Name          string `yaml:"name"`
	PortPolicy    string `yaml:"portPolicy"`
	ContainerPort int    `yaml:"containerPort"`
	HostPort      int    `yaml:"hostPort"`
	Protocol      string `yaml:"protocol"`
}

type health struct {
	Disabled            bool `yaml:"disabled"`
	InitialDelaySeconds int  `yaml:"initialDelaySeconds"`
	PeriodSeconds       int  `yaml:"periodSeconds"`
	FailureThreshold    int  `yaml:"failureThreshold"`
}

type securityContext struct {
	RunAsNonRoot *bool `yaml:"runAsNonRoot"`
	RunAsUser    *int  `yaml:"runAsUser"`
}

type container struct {
	Name            string          `yaml:"name"`
	Image           string          `yaml:"image"`
	Command         []string        `yaml:"command"`
	Args            []string        `yaml:"args"`
	Ports           []containerPort `yaml:"ports"`
	SecurityContext securityContext `yaml:"securityContext"`
}

// containerPort is a container's own port (not a GameServer's).
type containerPort struct {
	Name          string `yaml:"name"`
	ContainerPort int    `yaml:"containerPort"`
	Protocol      string `yaml:"protocol"`
}

type fleet struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Metadata   meta   `yaml:"metadata"`
	Spec       struct {
		Replicas int `yaml:"replicas"`
		Template struct {
			Spec struct {
				Ports    []gsPort `yaml:"ports"`
				Health   health   `yaml:"health"`
				Template struct {
					Spec struct {
						Containers []container `yaml:"containers"`
					} `yaml:"spec"`
				} `yaml:"template"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

type autoscaler struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Spec       struct {
		FleetName string `yaml:"fleetName"`
		Policy    struct {
			Type   string `yaml:"type"`
			Buffer struct {
				BufferSize  int `yaml:"bufferSize"`
				MinReplicas int `yaml:"minReplicas"`
				MaxReplicas int `yaml:"maxReplicas"`
			} `yaml:"buffer"`
		} `yaml:"policy"`
	} `yaml:"spec"`
}

type allocation struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Spec       struct {
		Selectors []struct {
			MatchLabels map[string]string `yaml:"matchLabels"`
		} `yaml:"selectors"`
	} `yaml:"spec"`
}

// --- the Dockerfile ------------------------------------------------------------

// stage is one FROM of a Dockerfile and the instructions under it.
type stage struct {
	from, name string
	env        []string // ENV and ARG lines, as written
	runs       []string
	copies     [][]string // COPY arguments, flags included
	user       string
	expose     []string
	entrypoint []string
	cmd        []string
}

type dockerfile struct {
	stages []stage
}

func (d dockerfile) final() stage { return d.stages[len(d.stages)-1] }

// parseDockerfile reads the instructions the checks need: continuation lines
// joined, comments and blank lines dropped, ENTRYPOINT and CMD in exec (JSON)
// form only.
func parseDockerfile(r io.Reader) (dockerfile, error) {
	var d dockerfile
	var lines []string
	var cur strings.Builder
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if more, ok := strings.CutSuffix(line, `\`); ok {
			cur.WriteString(more + " ")
			continue
		}
		cur.WriteString(line)
		lines = append(lines, cur.String())
		cur.Reset()
	}
	if err := sc.Err(); err != nil {
		return d, err
	}
	if cur.Len() > 0 {
		return d, errors.New("dockerfile ends in a continuation")
	}
	for _, line := range lines {
		instr, rest, _ := strings.Cut(line, " ")
		rest = strings.TrimSpace(rest)
		instr = strings.ToUpper(instr)
		if instr == "FROM" {
			f := strings.Fields(rest)
			s := stage{from: f[0]}
			if len(f) == 3 && strings.EqualFold(f[1], "AS") {
				s.name = f[2]
			}
			d.stages = append(d.stages, s)
			continue
		}
		if len(d.stages) == 0 {
			if instr == "ARG" {
				continue
			}
			return d, fmt.Errorf("dockerfile: %s before FROM", instr)
		}
		s := &d.stages[len(d.stages)-1]
		switch instr {
		case "ENV", "ARG":
			s.env = append(s.env, rest)
		case "RUN":
			s.runs = append(s.runs, rest)
		case "COPY":
			s.copies = append(s.copies, strings.Fields(rest))
		case "USER":
			s.user = rest
		case "EXPOSE":
			s.expose = append(s.expose, strings.Fields(rest)...)
		case "ENTRYPOINT", "CMD":
			var v []string
			if err := json.Unmarshal([]byte(rest), &v); err != nil {
				return d, fmt.Errorf("dockerfile: %s not in exec form: %w", instr, err)
			}
			if instr == "CMD" {
				s.cmd = v
			} else {
				s.entrypoint = v
			}
		}
	}
	if len(d.stages) == 0 {
		return d, errors.New("dockerfile has no FROM")
	}
	return d, nil
}

// --- cmd/server's flags ----------------------------------------------------------

// flagDecl finds flag definitions in cmd/server's source: flag.Int("name", ...)
// and flag.IntVar(&v, "name", ...), on the flag package or a FlagSet named fs.
var flagDecl = regexp.MustCompile(`\b(?:flag|fs)\.(String|Int|Int64|Uint|Uint64|Bool|Float64|Duration)(?:Var\(\s*&?[\w.]+\s*,)?\(?\s*"([a-z0-9][a-z0-9-]*)"`)

// serverFlags returns cmd/server's flag names and their kinds, read from
// its source, with the Agones flags added if the source has none yet.
func serverFlags(dir string) (map[string]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	kinds := map[string]string{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		for _, m := range flagDecl.FindAllSubmatch(src, -1) {
			kinds[string(m[2])] = string(m[1])
		}
	}
	if len(kinds) == 0 {
		return nil, fmt.Errorf("no flags found in %s", dir)
	}
	for flag, kind := range map[string]string{agonesFlag: "Bool", agonesHealthFlag: "Duration"} {
		if kinds[flag] != kind {
			return nil, fmt.Errorf("cmd/server has no %s flag -%s", kind, flag)
		}
	}
	return kinds, nil
}

// parseArgs parses args as cmd/server would, with a flag set of the same
// names and kinds. It fails on an unknown flag, a value that does not parse
// as the flag's kind, and a stray argument (which would end flag parsing
// and leave the flags after it unread).
func parseArgs(kinds map[string]string, args []string) (*flag.FlagSet, error) {
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	for name, kind := range kinds {
		switch kind {
		case "String":
			fs.String(name, "", "")
		case "Int":
			fs.Int(name, 0, "")
		case "Int64":
			fs.Int64(name, 0, "")
		case "Uint":
			fs.Uint(name, 0, "")
		case "Uint64":
			fs.Uint64(name, 0, "")
		case "Bool":
			fs.Bool(name, false, "")
		case "Float64":
			fs.Float64(name, 0, "")
		case "Duration":
			fs.Duration(name, 0, "")
		}
	}
	if err := fs.Parse(args); err != nil {
		return nil, fmt.Errorf("%w: %v: %w", errFlag, args, err)
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("%w: stray arguments %q", errFlag, fs.Args())
	}
	return fs, nil
}

// set reports whether args name the flag, and its value.
func set(fs *flag.FlagSet, name string) (string, bool) {
	found := false
	fs.Visit(func(f *flag.Flag) { found = found || f.Name == name })
	return fs.Lookup(name).Value.String(), found
}

// --- the whole deployment ----------------------------------------------------------

type deployment struct {
	docker     dockerfile
	fleet      fleet
	autoscaler autoscaler
	allocation allocation
	flags      map[string]string
}

func decodeYAML(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := yaml.NewDecoder(bytes.NewReader(b)).Decode(v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

func load(t *testing.T) deployment {
	t.Helper()
	var d deployment
	f, err := os.Open("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if d.docker, err = parseDockerfile(f); err != nil {
		t.Fatal(err)
	}
	for path, v := range map[string]any{
		"agones/fleet.yaml":      &d.fleet,
		"agones/autoscaler.yaml": &d.autoscaler,
		"agones/allocation.yaml": &d.allocation,
	} {
		if err := decodeYAML(path, v); err != nil {
			t.Fatal(err)
		}
	}
	if d.flags, err = serverFlags(filepath.Join("..", "cmd", "server")); err != nil {
		t.Fatal(err)
	}
	return d
}

// addrPort is the port of a -addr value such as ":8080".
func addrPort(addr string) (int, error) {
	_, p, err := net.SplitHostPort(addr)
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(p)
}

// check runs every check of the deployment and joins what it finds.
func check(d deployment) error {
	var errs []error
	fail := func(kind error, format string, a ...any) {
		errs = append(errs, fmt.Errorf("%w: %s", kind, fmt.Sprintf(format, a...)))
	}
	fl, as, al := d.fleet, d.autoscaler, d.allocation

	// Kinds and names.
	if fl.APIVersion != "agones.dev/v1" || fl.Kind != "Fleet" {
		fail(errManifest, "fleet is %s %s", fl.APIVersion, fl.Kind)
	}
	if as.APIVersion != "autoscaling.agones.dev/v1" || as.Kind != "FleetAutoscaler" {
		fail(errManifest, "autoscaler is %s %s", as.APIVersion, as.Kind)
	}
	if al.APIVersion != "allocation.agones.dev/v1" || al.Kind != "GameServerAllocation" {
		fail(errManifest, "allocation is %s %s", al.APIVersion, al.Kind)
	}
	if len(al.Spec.Selectors) == 0 || al.Spec.Selectors[0].MatchLabels["agones.dev/fleet"] != fl.Metadata.Name {
		fail(errManifest, "allocation does not select fleet %q", fl.Metadata.Name)
	}

	// The container and its flags.
	cs := fl.Spec.Template.Spec.Template.Spec.Containers
	if len(cs) != 1 {
		fail(errImage, "fleet has %d containers, want 1", len(cs))
		return errors.Join(errs...)
	}
	c := cs[0]
	if len(c.Command) > 0 {
		fail(errImage, "container command %q replaces the image's entrypoint", c.Command)
	}
	if ref := c.Image; ref == "" || !strings.Contains(ref[strings.LastIndex(ref, "/")+1:], ":") || strings.HasSuffix(ref, ":latest") {
		fail(errImage, "image %q has no fixed tag", ref)
	}
	args, err := parseArgs(d.flags, c.Args)
	if err != nil {
		errs = append(errs, fmt.Errorf("fleet args: %w", err))
		return errors.Join(errs...)
	}
	if v, ok := set(args, agonesFlag); !ok || v != "true" {
		fail(errFlag, "fleet args do not turn on -%s", agonesFlag)
	}
	for _, name := range []string{"addr", "udp-port", agonesHealthFlag, "web"} {
		if _, ok := set(args, name); !ok {
			fail(errFlag, "fleet args do not set -%s", name)
		}
	}
	udp, err := strconv.Atoi(args.Lookup("udp-port").Value.String())
	if err != nil || udp <= 0 {
		fail(errPort, "-udp-port %q must be a fixed port", args.Lookup("udp-port").Value)
	}
	httpPort, err := addrPort(args.Lookup("addr").Value.String())
	if err != nil || httpPort <= 0 {
		fail(errPort, "-addr %q must name a fixed port", args.Lookup("addr").Value)
	}

	// The image's own defaults: the same flags and ports.
	img := d.docker.final()
	if cmd, err := parseArgs(d.flags, img.cmd); err != nil {
		errs = append(errs, fmt.Errorf("dockerfile CMD: %w", err))
	} else {
		for _, name := range []string{"addr", "udp-port", "web"} {
			if a, b := cmd.Lookup(name).Value.String(), args.Lookup(name).Value.String(); a != b {
				fail(errPort, "-%s is %q in the Dockerfile's CMD, %q in the fleet", name, a, b)
			}
		}
	}

	// Ports: the Fleet's, the flags' and the Dockerfile's EXPOSE agree.
	var sawUDP, sawHTTP bool
	for _, p := range fl.Spec.Template.Spec.Ports {
		switch p.ContainerPort {
		case udp:
			sawUDP = true
			if p.Protocol != "UDP" {
				fail(errPort, "port %q (-udp-port %d) has protocol %q, want UDP", p.Name, udp, p.Protocol)
			}
			switch p.PortPolicy {
			case "Static":
				if p.HostPort != p.ContainerPort {
					fail(errPort, "port %q: hostPort %d != containerPort %d; ICE advertises the port the server binds", p.Name, p.HostPort, p.ContainerPort)
				}
			case "Passthrough":
			default:
				fail(errPort, "port %q has portPolicy %q; the WebRTC port must be Static or Passthrough", p.Name, p.PortPolicy)
			}
		case httpPort:
			sawHTTP = true
			// Agones takes an unset protocol as UDP.
			if p.Protocol != "TCP" {
				fail(errPort, "port %q (-addr %d) has protocol %q, want TCP", p.Name, httpPort, p.Protocol)
			}
		default:
			fail(errPort, "port %q (%d) is neither -addr %d nor -udp-port %d", p.Name, p.ContainerPort, httpPort, udp)
		}
	}
	if !sawUDP || !sawHTTP {
		fail(errPort, "fleet opens UDP %d: %t, TCP %d: %t", udp, sawUDP, httpPort, sawHTTP)
	}
	exposed := slices.Clone(img.expose)
	slices.Sort(exposed)
	want := []string{fmt.Sprintf("%d/tcp", httpPort), fmt.Sprintf("%d/udp", udp)}
	slices.Sort(want)
	if !slices.Equal(exposed, want) {
		fail(errPort, "Dockerfile exposes %q, want %q", exposed, want)
	}

	// Health: the server calls Health every -agones-health; each period of
	// the Fleet's health check must see at least two calls, so that one late
	// call does not count as a failure.
	h := fl.Spec.Template.Spec.Health
	every, _ := time.ParseDuration(args.Lookup(agonesHealthFlag).Value.String())
	period := time.Duration(h.PeriodSeconds) * time.Second
	switch {
	case h.Disabled:
		fail(errHealth, "health checking is disabled")
	case every <= 0:
		fail(errHealth, "-%s is %v", agonesHealthFlag, every)
	case 2*every > period:
		fail(errHealth, "periodSeconds %d sees fewer than two calls every %v", h.PeriodSeconds, every)
	case h.FailureThreshold < 2:
		fail(errHealth, "failureThreshold %d: one failed period would mark the server Unhealthy", h.FailureThreshold)
	case h.InitialDelaySeconds < 1:
		fail(errHealth, "initialDelaySeconds %d leaves the server no time to start", h.InitialDelaySeconds)
	}

	// Not root, in the image and in the pod.
	uid, _, _ := strings.Cut(img.user, ":")
	n, err := strconv.Atoi(uid)
	if err != nil || n == 0 {
		fail(errRoot, "image USER %q is not a numeric non-root uid", img.user)
	}
	sc := c.SecurityContext
	if sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot {
		fail(errRoot, "container does not set runAsNonRoot")
	}
	if sc.RunAsUser != nil && (*sc.RunAsUser == 0 || *sc.RunAsUser != n) {
		fail(errRoot, "container runAsUser %d, image USER %q", *sc.RunAsUser, img.user)
	}

	// The server built static and stripped, on a base with no libc.
	build := ""
	for _, s := range d.docker.stages {
		for _, r := range s.runs {
			if strings.Contains(r, "./cmd/server") {
				build = strings.Join(s.env, " ") + " " + r
			}
		}
	}
	for _, want := range []string{"CGO_ENABLED=0", "-trimpath", `-ldflags="-s -w"`} {
		if !strings.Contains(build, want) {
			fail(errBuild, "the build of ./cmd/server lacks %s", want)
		}
	}
	if !strings.HasPrefix(img.from, "gcr.io/distroless/static") && img.from != "scratch" {
		fail(errBuild, "final base %q is not distroless static or scratch", img.from)
	}

	// The entrypoint and the -web directory are what the final stage copies in.
	var copied []string
	for _, cp := range img.copies {
		copied = append(copied, cp[len(cp)-1])
	}
	if len(img.entrypoint) != 1 || !slices.Contains(copied, img.entrypoint[0]) {
		fail(errImage, "ENTRYPOINT %q is not a file the final stage copies (%q)", img.entrypoint, copied)
	}
	if web := args.Lookup("web").Value.String(); !slices.Contains(copied, web) {
		fail(errImage, "-web %q is not a directory the final stage copies (%q)", web, copied)
	}

	// The autoscaler keeps the fleet within bounds.
	b := as.Spec.Policy.Buffer
	switch {
	case as.Spec.FleetName != fl.Metadata.Name:
		fail(errAutoscale, "autoscaler scales %q, the fleet is %q", as.Spec.FleetName, fl.Metadata.Name)
	case as.Spec.Policy.Type != "Buffer":
		fail(errAutoscale, "policy %q, want Buffer", as.Spec.Policy.Type)
	case b.BufferSize < 1:
		fail(errAutoscale, "bufferSize %d", b.BufferSize)
	case b.MinReplicas < 0 || b.MinReplicas > b.MaxReplicas || b.BufferSize > b.MaxReplicas:
		fail(errAutoscale, "bufferSize %d, minReplicas %d, maxReplicas %d", b.BufferSize, b.MinReplicas, b.MaxReplicas)
	case fl.Spec.Replicas < b.MinReplicas || fl.Spec.Replicas > b.MaxReplicas:
		fail(errAutoscale, "fleet replicas %d outside [%d, %d]", fl.Spec.Replicas, b.MinReplicas, b.MaxReplicas)
	}
	return errors.Join(errs...)
}

func TestDeployment(t *testing.T) {
	d := load(t)
	if err := check(d); err != nil {
		t.Fatal(err)
	}
	// The values the checks compared, so that a check that compared nothing
	// would show here.
	args, err := parseArgs(d.flags, d.fleet.Spec.Template.Spec.Template.Spec.Containers[0].Args)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"addr": ":8080", "udp-port": "8443", agonesHealthFlag: "5s", agonesFlag: "true"} {
		if got := args.Lookup(name).Value.String(); got != want {
			t.Errorf("-%s = %q, want %q", name, got, want)
		}
	}
	if got, want := d.docker.final().expose, []string{"8080/tcp", "8443/udp"}; !slices.Equal(got, want) {
		t.Errorf("EXPOSE %q, want %q", got, want)
	}
	if got := d.docker.final().user; got != "65532:65532" {
		t.Errorf("USER %q, want 65532:65532", got)
	}
	if got := len(d.docker.stages); got != 2 {
		t.Errorf("%d stages, want 2 (build, run)", got)
	}
}

// TestServerFlags checks that the flag reader finds cmd/server's flags, so
// that the flag checks above check something.
func TestServerFlags(t *testing.T) {
	kinds, err := serverFlags(filepath.Join("..", "cmd", "server"))
	if err != nil {
		t.Fatal(err)
	}
	for name, kind := range map[string]string{
		"addr": "String", "udp-port": "Int", "web": "String", "loopback": "Bool", "announce": "Bool",
		"max-clients": "Int", "timeout": "Duration", "rate": "Float64", "seed": "Uint64",
		agonesFlag: "Bool", agonesHealthFlag: "Duration",
	} {
		if got := kinds[name]; got != kind {
			t.Errorf("-%s: kind %q, want %q", name, got, kind)
		}
	}
}

// TestCheckFails breaks the deployment one way at a time and wants the
// check to name the fault.
func TestCheckFails(t *testing.T) {
	ptr := func(n int) *int { return &n }
	container := func(d *deployment) *container { return &d.fleet.Spec.Template.Spec.Template.Spec.Containers[0] }
	ports := func(d *deployment) []gsPort { return d.fleet.Spec.Template.Spec.Ports }
	replaceArg := func(d *deployment, prefix, arg string) {
		c := container(d)
		c.Args = slices.Clone(c.Args)
		for i, a := range c.Args {
			if strings.HasPrefix(a, prefix) {
				c.Args[i] = arg
				return
			}
		}
		c.Args = append(c.Args, arg)
	}
	tests := []struct {
		name   string
		mutate func(*deployment)
		want   error
	}{
		{"fleet kind", func(d *deployment) { d.fleet.Kind = "GameServerSet" }, errManifest},
		{"allocation selects another fleet", func(d *deployment) {
			d.allocation.Spec.Selectors[0].MatchLabels = map[string]string{"agones.dev/fleet": "other"}
		}, errManifest},
		{"unknown flag", func(d *deployment) { replaceArg(d, "-log-level", "-no-such-flag=1") }, errFlag},
		{"flag value of the wrong kind", func(d *deployment) { replaceArg(d, "-udp-port", "-udp-port=eighty") }, errFlag},
		{"stray argument", func(d *deployment) { replaceArg(d, "-log-level", "info") }, errFlag},
		{"agones off", func(d *deployment) { replaceArg(d, "-agones", "-agones=false") }, errFlag},
		{"udp port over tcp", func(d *deployment) {
			p := slices.Clone(ports(d))
			p[0].Protocol = "TCP"
			d.fleet.Spec.Template.Spec.Ports = p
		}, errPort},
		{"dynamic udp port", func(d *deployment) {
			p := slices.Clone(ports(d))
			p[0].PortPolicy, p[0].HostPort = "Dynamic", 0
			d.fleet.Spec.Template.Spec.Ports = p
		}, errPort},
		{"static host port differs", func(d *deployment) {
			p := slices.Clone(ports(d))
			p[0].HostPort = 7777
			d.fleet.Spec.Template.Spec.Ports = p
		}, errPort},
		{"http protocol unset", func(d *deployment) {
			p := slices.Clone(ports(d))
			p[1].Protocol = ""
			d.fleet.Spec.Template.Spec.Ports = p
		}, errPort},
		{"udp-port not the fleet's", func(d *deployment) { replaceArg(d, "-udp-port", "-udp-port=9000") }, errPort},
		{"addr not the fleet's", func(d *deployment) { replaceArg(d, "-addr", "-addr=:9090") }, errPort},
		{"expose misses udp", func(d *deployment) { d.docker.stages[1].expose = []string{"8080/tcp"} }, errPort},
		{"health period too short", func(d *deployment) { replaceArg(d, "-agones-health", "-agones-health=6s") }, errHealth},
		{"health threshold 1", func(d *deployment) { d.fleet.Spec.Template.Spec.Health.FailureThreshold = 1 }, errHealth},
		{"health disabled", func(d *deployment) { d.fleet.Spec.Template.Spec.Health.Disabled = true }, errHealth},
		{"image user root", func(d *deployment) { d.docker.stages[1].user = "0" }, errRoot},
		{"image user by name", func(d *deployment) { d.docker.stages[1].user = "nonroot" }, errRoot},
		{"pod runs as root", func(d *deployment) { container(d).SecurityContext.RunAsUser = ptr(0) }, errRoot},
		{"no runAsNonRoot", func(d *deployment) { container(d).SecurityContext.RunAsNonRoot = nil }, errRoot},
		{"cgo on", func(d *deployment) {
			s := &d.docker.stages[0]
			s.runs = slices.Clone(s.runs)
			for i, r := range s.runs {
				s.runs[i] = strings.ReplaceAll(r, "CGO_ENABLED=0", "CGO_ENABLED=1")
			}
		}, errBuild},
		{"debian base", func(d *deployment) { d.docker.stages[1].from = "debian:bookworm" }, errBuild},
		{"latest image", func(d *deployment) { container(d).Image = "REGISTRY/sightline-server:latest" }, errImage},
		{"untagged image", func(d *deployment) { container(d).Image = "registry:5000/sightline-server" }, errImage},
		{"command replaces entrypoint", func(d *deployment) { container(d).Command = []string{"/bin/sh"} }, errImage},
		{"web dir not in image", func(d *deployment) { replaceArg(d, "-web", "-web=/srv/www") }, errImage},
		{"autoscaler of another fleet", func(d *deployment) { d.autoscaler.Spec.FleetName = "other" }, errAutoscale},
		{"buffer over max", func(d *deployment) { d.autoscaler.Spec.Policy.Buffer.BufferSize = 50 }, errAutoscale},
		{"replicas over max", func(d *deployment) { d.fleet.Spec.Replicas = 21 }, errAutoscale},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := load(t)
			tt.mutate(&d)
			err := check(d)
			if !errors.Is(err, tt.want) {
				t.Fatalf("check = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestParseDockerfile(t *testing.T) {
	src := "ARG V=1\nFROM golang AS build\nENV CGO_ENABLED=0\nRUN a \\\n  && b\n# note\n\nFROM scratch\nCOPY --from=build /out/x /x\nUSER 1:1\nEXPOSE 1/tcp 2/udp\nENTRYPOINT [\"/x\"]\nCMD [\"-a=1\"]\n"
	d, err := parseDockerfile(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(d.stages) != 2 || d.stages[0].name != "build" || d.stages[1].from != "scratch" {
		t.Fatalf("stages %+v", d.stages)
	}
	if got := d.stages[0].runs; !slices.Equal(got, []string{"a  && b"}) {
		t.Errorf("runs %q", got)
	}
	f := d.final()
	if !slices.Equal(f.expose, []string{"1/tcp", "2/udp"}) || f.user != "1:1" ||
		!slices.Equal(f.entrypoint, []string{"/x"}) || !slices.Equal(f.cmd, []string{"-a=1"}) ||
		!slices.Equal(f.copies[0], []string{"--from=build", "/out/x", "/x"}) {
		t.Errorf("final stage %+v", f)
	}
	for _, bad := range []string{"RUN x\n", "FROM a\nCMD /x\n", "FROM a\nRUN x \\\n", ""} {
		if _, err := parseDockerfile(strings.NewReader(bad)); err == nil {
			t.Errorf("parseDockerfile(%q) = nil error", bad)
		}
	}
}
