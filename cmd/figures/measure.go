package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sightline-game/sightline/game/duel"
	"github.com/sightline-game/sightline/game/web"
	"github.com/sightline-game/sightline/internal/figures"
	"github.com/sightline-game/sightline/internal/wasmsize"
	"github.com/sightline-game/sightline/wasm/page"
)

// errParse is a command's output that does not hold the figure.
var errParse = errors.New("output holds no figure")

// measureBytes runs cmd/netbench's two tables. Both are seeded: the same
// code prints the same tables on every machine.
func measureBytes(e *env) ([]figures.Figure, error) {
	var out []figures.Figure
	for _, t := range []struct {
		name, title string
		args        []string
	}{
		{figures.BandwidthModel, "The bandwidth table of the traffic model (100 entities at 10 Hz for 600 s each, 200 ms round trip, history 16, seed 1).",
			[]string{"-table"}},
		{figures.BandwidthArena, "The bandwidth table of the game's own traffic: each row runs the command in its last column.",
			[]string{"-traffic", "arena", "-table"}},
	} {
		f := e.figure(t.name, t.title, "go run ./cmd/netbench "+strings.Join(t.args, " "))
		s, err := e.run(nil, e.Go, append([]string{"run", "./cmd/netbench"}, t.args...)...)
		if err != nil {
			return nil, err
		}
		f.Content = strings.TrimRight(s, "\n")
		if !strings.HasPrefix(f.Content, "| ") {
			return nil, fmt.Errorf("%s: %w:\n%s", t.name, errParse, s)
		}
		f.Exact = "yes, seeded; TestTablesAsInFigures (cmd/netbench) recomputes both tables and compares"
		out = append(out, f)
	}
	return out, nil
}

// wasmBuild is how `make web` builds game.wasm.
const wasmBuild = `GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w" -o out/web/game.wasm ./wasm && go run ./cmd/precompress out/web/game.wasm out/web/wasm_exec.js`

// measureWasm builds the browser client into out/web as `make web` does
// and reads the sizes of game.wasm and wasm_exec.js as cmd/precompress
// wrote them; the page's sizes are those the server compresses at start.
func measureWasm(e *env) ([]figures.Figure, error) {
	dir := filepath.Join(e.root, "out", "web")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if _, err := e.run([]string{"GOOS=js", "GOARCH=wasm"}, e.Go, "build", "-trimpath", "-ldflags=-s -w", "-o", filepath.Join(dir, web.WasmFile), "./wasm"); err != nil {
		return nil, err
	}
	goroot, err := e.run(nil, e.Go, "env", "GOROOT")
	if err != nil {
		return nil, err
	}
	execJS, err := os.ReadFile(filepath.Join(strings.TrimSpace(goroot), "lib", "wasm", web.ExecFile))
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, web.ExecFile), execJS, 0o644); err != nil {
		return nil, err
	}
	if _, err := e.run(nil, e.Go, "run", "./cmd/precompress", filepath.Join(dir, web.WasmFile), filepath.Join(dir, web.ExecFile)); err != nil {
		return nil, err
	}
	var sizes []figures.Sizes
	for _, name := range []string{web.WasmFile, web.ExecFile} {
		s := figures.Sizes{File: name}
		for _, p := range []struct {
			suffix string
			n      *int
		}{{"", &s.Raw}, {web.Gzip.Suffix(), &s.Gzip}, {web.Brotli.Suffix(), &s.Brotli}} {
			fi, err := os.Stat(filepath.Join(dir, name+p.suffix))
			if err != nil {
				return nil, err
			}
			*p.n = int(fi.Size())
		}
		if name == web.WasmFile {
			fi, err := os.Stat(filepath.Join(dir, name+web.LZMASuffix))
			if err != nil {
				return nil, fmt.Errorf("%w (cmd/precompress packs game.wasm with xz)", err)
			}
			s.LZMA = int(fi.Size())
		}
		sizes = append(sizes, s)
	}
	pg := figures.Sizes{File: "the page (index.html)", Raw: len(page.Index)}
	for _, c := range []struct {
		enc web.Encoding
		n   *int
	}{{web.Gzip, &pg.Gzip}, {web.Brotli, &pg.Brotli}} {
		var b bytes.Buffer
		if err := web.Compress(&b, c.enc, page.Index); err != nil {
			return nil, err
		}
		*c.n = b.Len()
	}
	sizes = append(sizes, pg)

	exact := "yes: the same code built by the same Go version (" + e.goVersion() + ") gives the same bytes; " +
		"TestBrowserStartup (wasm/browsertest) builds them so, as the server sends them, and compares"
	table := e.figure(figures.WasmSizes, "The browser build's files in bytes, raw and as the server sends them (`make web`, Go's own encoders: gzip -9, brotli quality 11 with a 16 MiB window; and xz's LZMA for a browser on plain http, which asks for gzip alone); the page is compressed by the server at start.", wasmBuild)
	table.Content, table.Exact = figures.SizesTable(sizes), exact
	line := e.figure(figures.WasmSizesLine, "game.wasm's sizes in a sentence, in MB of a million bytes.", wasmBuild)
	line.Content, line.Exact = figures.SizesLine(sizes[0]), exact
	code, err := measureWasmCode(e)
	if err != nil {
		return nil, err
	}
	return []figures.Figure{table, line, code}, nil
}

// wasmCodeCommand is how the wasm-code figure is made.
const wasmCodeCommand = `GOOS=js GOARCH=wasm go build -trimpath -o /tmp/game-named.wasm ./wasm && go run ./cmd/wasmsize -deps ./wasm -by module -top 0 /tmp/game-named.wasm && go run ./cmd/wasmsize -deps ./wasm -top 15 /tmp/game-named.wasm`

// measureWasmCode builds game.wasm with its function names (without -s
// -w: the same code) and totals its code by module and by package.
func measureWasmCode(e *env) (figures.Figure, error) {
	f := e.figure("wasm-code", "What game.wasm's code is, by module and by the 15 largest packages: each function body's bytes, by the name section of a build without -s -w.", wasmCodeCommand)
	dir, err := os.MkdirTemp("", "wasm-code")
	if err != nil {
		return f, err
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, web.WasmFile)
	if _, err := e.run([]string{"GOOS=js", "GOARCH=wasm"}, e.Go, "build", "-trimpath", "-o", bin, "./wasm"); err != nil {
		return f, err
	}
	deps, err := e.run([]string{"GOOS=js", "GOARCH=wasm"}, e.Go, "list", "-deps", "./wasm")
	if err != nil {
		return f, err
	}
	b, err := os.ReadFile(bin)
	if err != nil {
		return f, err
	}
	m, err := wasmsize.ParseNamed(b)
	if err != nil {
		return f, err
	}
	name := wasmsize.Namer(strings.Fields(deps))
	var c strings.Builder
	fmt.Fprintf(&c, "game.wasm with its names: %s.\n\n", wasmsize.Summary(b, m))
	wasmsize.WriteGroups(&c, wasmsize.Groups(m, name, true), "module", 0)
	c.WriteString("\n")
	wasmsize.WriteGroups(&c, wasmsize.Groups(m, name, false), "package", 15)
	f.Content = strings.TrimRight(c.String(), "\n")
	f.Exact = "yes: the same code built by the same Go version (" + e.goVersion() + ") gives the same bytes; no test recomputes it"
	return f, nil
}

// startupLine is one phase as TestBrowserStartup logs it.
var startupLine = regexp.MustCompile(`figure start-up, (.+?): \| (.+) \| (\d+) ms \|\s*$`)

// drawingLine is TestBrowserStartup's summary of what drawing costs.
var drawingLine = regexp.MustCompile(`figure drawing: (.+)$`)

// lanLine is TestBrowserOnALANAddress's summary of what a browser on plain
// http downloads.
var lanLine = regexp.MustCompile(`figure lan: (.+)$`)

// measureStartup runs TestBrowserStartup and TestBrowserOnALANAddress and
// tabulates the phases they log, one column a visit.
func measureStartup(e *env) ([]figures.Figure, error) {
	const cmd = "go test -count=1 -v -run 'TestBrowserStartup$|TestBrowserOnALANAddress' ./wasm/browsertest"
	f := e.figure("startup", "The browser's start-up, each phase in ms from navigation (headless Chromium with SwiftShader, one tab at a time; server on loopback, game.wasm in brotli, but for the last column: from the machine's LAN address on plain http, game.wasm packed in LZMA).", cmd)
	s, err := e.run(nil, e.Go, "test", "-count=1", "-v", "-run", "TestBrowserStartup$|TestBrowserOnALANAddress", "./wasm/browsertest")
	if err != nil {
		return nil, err
	}
	content, err := startupTable(s, f.Measured+e.loadNote())
	if err != nil {
		return nil, err
	}
	f.Content = content
	return []figures.Figure{f}, nil
}

// startupTable turns TestBrowserStartup's log into the start-up figure.
func startupTable(log, measured string) (string, error) {
	var visits, phases []string
	ms := map[[2]string]string{}
	drawing, lan := "", ""
	for _, line := range strings.Split(log, "\n") {
		if m := startupLine.FindStringSubmatch(line); m != nil {
			visit, phase := strings.TrimSpace(m[1]), strings.TrimSpace(m[2])
			if !slices.Contains(visits, visit) {
				visits = append(visits, visit)
			}
			if !slices.Contains(phases, phase) {
				phases = append(phases, phase)
			}
			n, _ := strconv.Atoi(m[3])
			ms[[2]string{visit, phase}] = figures.Thousands(n) + " ms"
		} else if m := drawingLine.FindStringSubmatch(line); m != nil {
			drawing = strings.TrimSpace(m[1])
		} else if m := lanLine.FindStringSubmatch(line); m != nil {
			lan = strings.TrimSpace(m[1])
		}
	}
	if len(phases) == 0 {
		return "", fmt.Errorf("TestBrowserStartup: %w:\n%s", errParse, tail(log, 20))
	}
	// The visits on loopback first, the one from a LAN address last.
	lanLast := func(v string) int {
		if strings.HasPrefix(v, "LAN") {
			return 1
		}
		return 0
	}
	slices.SortStableFunc(visits, func(a, b string) int { return lanLast(a) - lanLast(b) })
	var b strings.Builder
	fmt.Fprintf(&b, "Measured %s:\n\n| phase (`window.sightline` field) | %s |\n|---|%s", measured, strings.Join(visits, " | "), strings.Repeat("---:|", len(visits)))
	for _, p := range phases {
		fmt.Fprintf(&b, "\n| %s |", p)
		for _, v := range visits {
			c := ms[[2]string{v, p}]
			if c == "" {
				c = "—"
			}
			fmt.Fprintf(&b, " %s |", c)
		}
	}
	if drawing != "" {
		fmt.Fprintf(&b, "\n\nDrawing: %s.", drawing)
	}
	if lan != "" {
		fmt.Fprintf(&b, "\n\nOn plain http: %s.", lan)
	}
	return b.String(), nil
}

// pairLine is one pair as scripts/cpupair.sh prints it: the pair's number,
// CPU now and then, their ratio, and the input lag now and then.
var pairLine = regexp.MustCompile(`^(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+|nan)\s+([\d.]+|nan)\s*$`)

// medianLine is cpupair.sh's summary.
var medianLine = regexp.MustCompile(`ratio least ([\d.]+)\s+median ([\d.]+)\s+most ([\d.]+)`)

// measureCPU runs scripts/cpupair.sh: this tree's server beside CPUBase's,
// alternately.
func measureCPU(e *env) ([]figures.Figure, error) {
	cmd := fmt.Sprintf("BASE=%s PAIRS=%d ./scripts/cpupair.sh", e.CPUBase, e.CPUPairs)
	f := e.figure("cpu-pair", "The server's CPU per player and tick (32 clients for 20 s against `cmd/server -bots 4`: cmd/loadtest's server_cpu_us_per_client_tick, or read from /proc by the script where the older revision's load tester does not report it), this tree beside an older revision, alternately; only a pair's ratio compares.", cmd)
	// cpupair.sh reads the figure from each side's own load tester, or
	// from /proc where the older one does not report it (before 72da74e).
	rev, _ := e.run(nil, "git", "rev-parse", "--short", "HEAD")
	rev = strings.TrimSpace(rev)
	// Documents do not change the server: only changes to the rest count.
	if st, _ := e.run(nil, "git", "status", "--porcelain", "--untracked-files=no", "--", ".", ":!*.md"); strings.TrimSpace(st) != "" {
		rev += " with uncommitted changes"
	}
	s, err := e.run([]string{"BASE=" + e.CPUBase, "PAIRS=" + strconv.Itoa(e.CPUPairs), "GO=" + e.goPath()}, "./scripts/cpupair.sh")
	if err != nil {
		return nil, err
	}
	content, err := cpuTable(s, f.Measured+e.loadNote(), rev, e.CPUBase)
	if err != nil {
		return nil, err
	}
	f.Content = content
	return []figures.Figure{f}, nil
}

// cpuTable turns cpupair.sh's output into the cpu-pair figure.
func cpuTable(out, measured, rev, base string) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "Measured %s, this tree (%s) beside %s:\n\n", measured, rev, base)
	fmt.Fprintf(&b, "| pair | CPU now, µs | CPU then (%s), µs | now / then | input lag now, inputs | input lag then |\n|---:|---:|---:|---:|---:|---:|", base)
	pairs := 0
	median := ""
	for _, line := range strings.Split(out, "\n") {
		if m := pairLine.FindStringSubmatch(line); m != nil {
			fmt.Fprintf(&b, "\n| %s | %s | %s | %s | %s | %s |", m[1], m[2], m[3], m[4], m[5], m[6])
			pairs++
		} else if m := medianLine.FindStringSubmatch(line); m != nil {
			median = fmt.Sprintf("\n\nMedian of the %d ratios: **%s** (least %s, most %s).", pairs, m[2], m[1], m[3])
		}
	}
	if pairs == 0 || median == "" {
		return "", fmt.Errorf("cpupair.sh: %w:\n%s", errParse, out)
	}
	b.WriteString(median)
	return b.String(), nil
}

// duelCases are the duels of the documentation's shooting section: name,
// server flags, load tester flags.
var duelCases = []string{
	"0ms||",
	"75ms-loss||-latency 75ms -jitter 10ms -loss 0.01",
	"10ms||-latency 10ms",
	"10ms-liar||-latency 10ms -duel-liar",
	"75ms-loss-norewind|-max-rewind 0|-latency 75ms -jitter 10ms -loss 0.01",
}

// duelLine is one line of scripts/duels.sh's output.
type duelLine struct {
	Case   string       `json:"case"`
	Result *duel.Result `json:"result"`
}

// measureDuels runs scripts/duels.sh on the documentation's cases.
func measureDuels(e *env) ([]figures.Figure, error) {
	quoted := make([]string, len(duelCases))
	for i, c := range duelCases {
		quoted[i] = strconv.Quote(c)
	}
	cmd := fmt.Sprintf("SECONDS_COUNTED=%d scripts/duels.sh %s", e.DuelSeconds, strings.Join(quoted, " "))
	f := e.figure("duels", "A perfect aimer against a strafer over real WebRTC on loopback through the conditioner, each duel against a fresh `cmd/server -bots 0 -creatures 0`, every tick of both clients verified.", cmd)
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	s, err := e.run([]string{"SECONDS_COUNTED=" + strconv.Itoa(e.DuelSeconds), "PORT=" + strconv.Itoa(port)}, "./scripts/duels.sh", duelCases...)
	if err != nil {
		return nil, err
	}
	content, err := duelTable(s, f.Measured+e.loadNote(), e.DuelSeconds)
	if err != nil {
		return nil, err
	}
	f.Content = content
	return []figures.Figure{f}, nil
}

// freePort returns a loopback TCP port free a moment ago.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// duelTable turns duels.sh's JSON lines into the duels figure.
func duelTable(out, measured string, seconds int) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "Measured %s, one %d s duel each:\n\n", measured, seconds)
	b.WriteString("| duel | shots | hit rate | agreement | view lag, mean / p95 | rejected | corrections a minute | remote jumps a minute | input delay, p50 | mismatched of verified ticks |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	n := 0
	var errs []error
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var d duelLine
		if json.Unmarshal(sc.Bytes(), &d) != nil || d.Case == "" {
			continue
		}
		if d.Result == nil || d.Result.Error != "" {
			msg := "no result"
			if d.Result != nil {
				msg = d.Result.Error
			}
			errs = append(errs, fmt.Errorf("duel %s: %s", d.Case, msg))
			continue
		}
		r := d.Result
		fmt.Fprintf(&b, "\n| `%s` | %d | %.3f | **%.3f** | %.0f / %.0f ms | %d | %.2f | %.2f | %.0f ms | %d of %d |",
			d.Case, r.Shots, r.HitRate, r.Agreement, r.ViewLagMsMean, r.ViewLagMsP95, r.Rejected,
			r.CorrectionsPerMin, r.RemoteJumpsPerMin, r.InputDelayMsP50, r.MismatchedTicks, r.VerifiedTicks)
		n++
	}
	if err := errors.Join(errs...); err != nil {
		return "", err
	}
	if n == 0 {
		return "", fmt.Errorf("duels.sh: %w:\n%s", errParse, out)
	}
	return b.String(), nil
}

// benchLine is one line of `go test -bench`: name, iterations, ns/op.
var benchLine = regexp.MustCompile(`^Benchmark(\S+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op`)

// measureRelay times a datagram's round trip on loopback, straight and
// through the relay (netcode/relay's BenchmarkRoundTrip, three runs each).
func measureRelay(e *env) ([]figures.Figure, error) {
	const cmd = "go test -run '^$' -bench RoundTrip -benchtime 5000x -count 3 ./netcode/relay"
	f := e.figure("relay-roundtrip", "A 200-byte datagram's round trip on loopback, straight and through a relay allocation: what the relay adds.", cmd)
	s, err := e.run(nil, e.Go, "test", "-run", "^$", "-bench", "RoundTrip", "-benchtime", "5000x", "-count", "3", "./netcode/relay")
	if err != nil {
		return nil, err
	}
	content, err := relayFigure(s, f.Measured+e.loadNote())
	if err != nil {
		return nil, err
	}
	f.Content = content
	return []figures.Figure{f}, nil
}

// relayFigure turns the benchmark's output into the relay-roundtrip figure.
func relayFigure(out, measured string) (string, error) {
	us := map[string][]float64{}
	for _, line := range strings.Split(out, "\n") {
		if m := benchLine.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			ns, _ := strconv.ParseFloat(m[2], 64)
			us[m[1]] = append(us[m[1]], ns/1000)
		}
	}
	direct, relayed := us["RoundTrip/direct"], us["RoundTrip/relayed"]
	if len(direct) == 0 || len(relayed) == 0 {
		return "", fmt.Errorf("BenchmarkRoundTrip: %w:\n%s", errParse, out)
	}
	list := func(v []float64) string {
		s := make([]string, len(v))
		for i, x := range v {
			s[i] = fmt.Sprintf("%.1f", x)
		}
		return strings.Join(s, ", ")
	}
	return fmt.Sprintf("Measured %s: straight %s µs, through an allocation %s µs (%d runs each): the relay adds about %.0f µs to a round trip (medians).",
		measured, list(direct), list(relayed), len(direct), median(relayed)-median(direct)), nil
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// internetLine is one phase of TestInternet: its name, the path, the
// connect time, the snapshots' bytes and the relay's bytes and CPU.
var internetLine = regexp.MustCompile(`figure ([^:]+): path (?:map)?\[([^\]]*)\], connect p50 (\d+) ms, (\d+) B/s of snapshots per client(?:; relay: \d+ bytes \((\d+) B/s per player\), CPU \S+ \(([\d.]+)% of a core per player\))?`)

// measureInternet runs TestInternet (cmd/loadtest: its own small internet
// of network namespaces and NATs; needs root and nftables) and tabulates
// what each phase cost the relay.
func measureInternet(e *env) ([]figures.Figure, error) {
	const cmd = "go test -count=1 -run 'TestInternet$' -v ./cmd/loadtest"
	f := e.figure("relay-internet", "Each phase of the test's own internet: 2 clients for 10 s, the path ICE took, and what the relay carried and spent per player.", cmd)
	// Without network namespaces the test would skip: fail it instead.
	s, err := e.run([]string{"SIGHTLINE_REQUIRE_NETNS=1"}, e.Go, "test", "-count=1", "-run", "TestInternet$", "-v", "./cmd/loadtest")
	if err != nil {
		return nil, err
	}
	content, err := internetTable(s, f.Measured+e.loadNote())
	if err != nil {
		return nil, err
	}
	f.Content = content
	return []figures.Figure{f}, nil
}

// internetTable turns TestInternet's log into the relay-internet figure.
func internetTable(log, measured string) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "Measured %s:\n\n| phase | path | connect p50 | snapshots per client | relay's bytes, per player | relay's CPU, per player |\n|---|---|---:|---:|---:|---:|", measured)
	n := 0
	for _, line := range strings.Split(log, "\n") {
		m := internetLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		connect, _ := strconv.Atoi(m[3])
		snaps, _ := strconv.Atoi(m[4])
		relayBytes, relayCPU := "", ""
		if m[5] != "" {
			v, _ := strconv.Atoi(m[5])
			relayBytes, relayCPU = figures.Thousands(v)+" B/s", m[6]+" % of a core"
		}
		fmt.Fprintf(&b, "\n| %s | `%s` | %s ms | %s B/s | %s | %s |", strings.TrimSpace(m[1]), m[2], figures.Thousands(connect), figures.Thousands(snaps), relayBytes, relayCPU)
		n++
	}
	if n == 0 {
		return "", fmt.Errorf("TestInternet: %w:\n%s", errParse, tail(log, 20))
	}
	return b.String(), nil
}

// measureTestTime times `make test` as CI runs it: in a fresh clone of
// the committed tree (HEAD), with the Go modules and build cache the
// machine already has.
func measureTestTime(e *env) ([]figures.Figure, error) {
	f := e.figure("test-time", "The wall time of every test, formatting and vet (`make test`: the race detector on, the desktop game's window test under Xvfb), in a fresh clone of the committed tree with the Go modules and build cache already on the machine.", "git clone . /tmp/x && make -C /tmp/x test")
	dir, err := os.MkdirTemp("", "test-time")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	rev, err := e.run(nil, "git", "rev-parse", "--short", "HEAD")
	if err != nil {
		return nil, err
	}
	clone := filepath.Join(dir, "project")
	if _, err := e.run(nil, "git", "clone", "-q", e.root, clone); err != nil {
		return nil, err
	}
	start := time.Now()
	if _, err := e.run(nil, "make", "-C", clone, "test", "GO="+e.goPath()); err != nil {
		return nil, err
	}
	took := time.Since(start).Round(time.Second)
	f.Content = fmt.Sprintf("Measured %s at %s: `make test` passed in %d min %02d s.", f.Measured+e.loadNote(), strings.TrimSpace(rev), int(took.Minutes()), int(took.Seconds())%60)
	return []figures.Figure{f}, nil
}
