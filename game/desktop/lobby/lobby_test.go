package lobby

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/netcode/lan"
)

func match(name, addr string, port uint16) lan.Match {
	ip := netip.MustParseAddr(addr)
	return lan.Match{
		Beacon: lan.Beacon{Name: name, Players: 2, MaxPlayers: 8, HTTPPort: port},
		From:   ip,
		URL:    "http://" + netip.AddrPortFrom(ip, port).String(),
	}
}

func names(m *Model) []string {
	var out []string
	for _, r := range m.Rows() {
		if r.Kind == RowHost {
			out = append(out, "[host]")
		} else {
			out = append(out, r.Match.Name+"@"+r.Match.URL)
		}
	}
	return out
}

// -join takes an address without its scheme, and an invite link.
func TestParseJoin(t *testing.T) {
	good := map[string]string{
		"127.0.0.1:8080":                 "http://127.0.0.1:8080",
		"example.org":                    "http://example.org:8080",
		"http://10.0.0.5:9000/":          "http://10.0.0.5:9000",
		"http://203.0.113.5:8090/i/ABCD": "http://203.0.113.5:8090/i/ABCD",
		"https://relay.example/i/ABCD/":  "https://relay.example/i/ABCD",
		"203.0.113.5:8090/i/ABCD":        "http://203.0.113.5:8090/i/ABCD",
	}
	for in, want := range good {
		if got, err := ParseJoin(in); err != nil || got != want {
			t.Errorf("ParseJoin(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "ftp://host/i/x", "http:///i/x", "host:99999"} {
		if got, err := ParseJoin(bad); err == nil {
			t.Errorf("ParseJoin(%q) = %q, want an error", bad, got)
		}
	}
}

func TestParseAddress(t *testing.T) {
	good := map[string]string{
		"http://10.0.0.5:8080":      "http://10.0.0.5:8080",
		"http://10.0.0.5:8080/":     "http://10.0.0.5:8080",
		"10.0.0.5:9000":             "http://10.0.0.5:9000",
		"  10.0.0.5:9000 ":          "http://10.0.0.5:9000",
		"10.0.0.5":                  "http://10.0.0.5:8080",
		"gamebox.local:8080":        "http://gamebox.local:8080",
		"localhost":                 "http://localhost:8080",
		"[fe80::1]:8080":            "http://[fe80::1]:8080",
		"http://[::1]:81":           "http://[::1]:81",
		"https://arena.example:443": "https://arena.example:443",
		"HTTP://10.0.0.5:8080":      "http://10.0.0.5:8080",
	}
	for in, want := range good {
		got, err := ParseAddress(in)
		if err != nil || got != want {
			t.Errorf("ParseAddress(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{
		"", "   ", "ftp://10.0.0.5:21", "10.0.0.5:0", "10.0.0.5:70000", "10.0.0.5:port",
		"10.0.0.5:", "http://10.0.0.5:8080/match", "http://10.0.0.5:8080?x=1", "http://u:p@10.0.0.5:8080",
		"http://:8080", "http://", "bad host:8080", "10.0.0.5:8080#top",
	} {
		if got, err := ParseAddress(in); err == nil {
			t.Errorf("ParseAddress(%q) = %q, want an error", in, got)
		}
	}
}

func TestSortedWithHostLast(t *testing.T) {
	m := New()
	if got := names(m); len(got) != 1 || got[0] != "[host]" || m.Matches() != 0 {
		t.Fatalf("empty menu: %v", got)
	}
	m.SetMatches([]lan.Match{
		match("zed", "10.0.0.2", 8080),
		match("Bob's match", "10.0.0.9", 8080),
		match("alpha", "10.0.0.3", 8080),
		match("Bob's match", "10.0.0.1", 8080),
	}, nil)
	want := []string{
		"alpha@http://10.0.0.3:8080",
		"Bob's match@http://10.0.0.1:8080",
		"Bob's match@http://10.0.0.9:8080",
		"zed@http://10.0.0.2:8080",
		"[host]",
	}
	if got := names(m); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("rows %v, want %v", got, want)
	}
	if m.Matches() != 4 {
		t.Fatalf("%d matches", m.Matches())
	}
}

func TestSelectionFollowsItsMatch(t *testing.T) {
	a, b, c := match("a", "10.0.0.1", 8080), match("b", "10.0.0.2", 8080), match("c", "10.0.0.3", 8080)
	m := New()
	// Until the player picks, the first row is selected: the first match heard.
	m.SetMatches([]lan.Match{b}, nil)
	if m.SelectedRow().Match.Name != "b" {
		t.Fatalf("selected %+v", m.SelectedRow())
	}
	m.SetMatches([]lan.Match{a, b}, nil)
	if m.SelectedRow().Match.Name != "a" {
		t.Fatalf("unchosen selection should stay on the first row, got %+v", m.SelectedRow())
	}
	// Once chosen, it follows its match as others arrive before it.
	m.Move(1)
	if m.SelectedRow().Match.Name != "b" {
		t.Fatalf("after Down: %+v", m.SelectedRow())
	}
	m.SetMatches([]lan.Match{c, b}, nil)
	if m.Selected() != 0 || m.SelectedRow().Match.Name != "b" {
		t.Fatalf("selection did not follow b: %d %+v", m.Selected(), m.SelectedRow())
	}
	m.SetMatches([]lan.Match{a, c, b}, nil)
	if m.Selected() != 1 || m.SelectedRow().Match.Name != "b" {
		t.Fatalf("selection did not follow b: %d", m.Selected())
	}
	// When it goes, the selection keeps its place.
	m.SetMatches([]lan.Match{a, c}, nil)
	if m.Selected() != 1 || m.SelectedRow().Match.Name != "c" {
		t.Fatalf("after b left: %d %+v", m.Selected(), m.SelectedRow())
	}
	m.SetMatches(nil, nil)
	if m.SelectedRow().Kind != RowHost {
		t.Fatalf("with no matches the host row is selected, got %+v", m.SelectedRow())
	}
	// The host row, once chosen, stays chosen as matches come.
	m.SetMatches([]lan.Match{a, b, c}, nil)
	if m.SelectedRow().Kind != RowHost {
		t.Fatalf("host row lost: %+v", m.SelectedRow())
	}
}

func TestMoveStopsAtTheEnds(t *testing.T) {
	m := New()
	m.SetMatches([]lan.Match{match("a", "10.0.0.1", 1), match("b", "10.0.0.2", 1)}, nil)
	m.Move(-1)
	if m.Selected() != 0 {
		t.Fatalf("up from the top: %d", m.Selected())
	}
	m.Move(5)
	if m.Selected() != 2 || m.SelectedRow().Kind != RowHost {
		t.Fatalf("down past the end: %d", m.Selected())
	}
	m.Move(-1)
	if m.Selected() != 1 {
		t.Fatalf("up: %d", m.Selected())
	}
	m.Select(7)
	m.Select(-1)
	if m.Selected() != 1 {
		t.Fatalf("out-of-range Select changed the selection: %d", m.Selected())
	}
}

func TestEnter(t *testing.T) {
	m := New()
	if a := m.Enter(); a.Kind != ActionHost {
		t.Fatalf("Enter on the host row: %+v", a)
	}
	m.SetMatches([]lan.Match{match("lan party", "192.168.1.20", 8080)}, nil)
	if a := m.Enter(); a.Kind != ActionJoin || a.URL != "http://192.168.1.20:8080" || a.Name != "lan party" {
		t.Fatalf("Enter on a match: %+v", a)
	}

	m.ToggleFocus()
	if m.Focus() != FocusAddress {
		t.Fatal("Tab did not focus the address field")
	}
	if a := m.Enter(); a.Kind != ActionInvalid || a.Err == nil {
		t.Fatalf("Enter on an empty field: %+v", a)
	}
	m.Type([]rune("10.0.0.7:9\x1b0")...) // the control character is dropped
	m.Type('0', '0', '\n')
	if m.Address() != "10.0.0.7:9000" {
		t.Fatalf("typed %q", m.Address())
	}
	if a := m.Enter(); a.Kind != ActionJoin || a.URL != "http://10.0.0.7:9000" {
		t.Fatalf("Enter on a typed address: %+v", a)
	}
	m.Backspace()
	m.Backspace()
	m.Backspace()
	m.Backspace()
	m.Backspace()
	if a := m.Enter(); m.Address() != "10.0.0.7" || a.URL != "http://10.0.0.7:8080" {
		t.Fatalf("after backspaces %q: %+v", m.Address(), a)
	}
	m.Type([]rune(":x")...)
	if a := m.Enter(); a.Kind != ActionInvalid {
		t.Fatalf("Enter on a bad address: %+v", a)
	}

	// Moving in the list takes the keys back.
	m.Move(0)
	if m.Focus() != FocusList || m.Enter().Kind != ActionJoin {
		t.Fatalf("focus %v, Enter %+v", m.Focus(), m.Enter())
	}
	m.Type([]rune(strings.Repeat("x", 2*MaxAddress))...)
	if n := len([]rune(m.Address())); n != MaxAddress {
		t.Fatalf("field holds %d runes", n)
	}
}

func TestWindowKeepsTheSelectionInView(t *testing.T) {
	var ms []lan.Match
	for i := range 20 {
		ms = append(ms, match(string(rune('a'+i)), "10.0.0.1", uint16(1000+i)))
	}
	m := New()
	m.SetMatches(ms, nil) // 21 rows
	if f := m.Window(0, 8); f != 0 {
		t.Fatalf("first %d", f)
	}
	m.Move(10)
	if f := m.Window(0, 8); f != 3 {
		t.Fatalf("sel 10 in 8 rows from 0: first %d", f)
	}
	if f := m.Window(5, 8); f != 5 {
		t.Fatalf("sel 10 already in view from 5: first %d", f)
	}
	m.Move(-9)
	if f := m.Window(5, 8); f != 1 {
		t.Fatalf("sel 1: first %d", f)
	}
	m.SetMatches(ms[:3], nil)
	if f := m.Window(5, 8); f != 0 {
		t.Fatalf("short list: first %d", f)
	}
}

func TestPingString(t *testing.T) {
	now := time.Now()
	for _, c := range []struct {
		p    Ping
		want string
	}{
		{Ping{}, "—"},
		{Ping{RTT: 12 * time.Millisecond, At: now}, "12 ms"},
		{Ping{RTT: 300 * time.Microsecond, At: now}, "<1 ms"},
		{Ping{Err: errors.New("refused"), At: now}, "no answer"},
	} {
		if got := c.p.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.p, got, c.want)
		}
	}
}

// The pinger GETs /healthz of every watched match, again every Every, and
// forgets the matches no longer watched.
func TestPinger(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == client.MatchesPath {
			w.Write([]byte(`{"matches":[{"id":"1","name":"Match 1","players":3,"capacity":8},{"id":"2","name":"Match 2","players":8,"capacity":8}]}`))
			return
		}
		if r.URL.Path != HealthPath {
			http.NotFound(w, r)
			return
		}
		hits.Add(1)
		time.Sleep(5 * time.Millisecond)
		w.Write([]byte("ok\n"))
	}))
	defer srv.Close()
	bad := httptest.NewServer(http.NotFoundHandler())
	defer bad.Close()

	ctx, cancel := context.WithCancel(context.Background())
	p := &Pinger{Every: 100 * time.Millisecond, Timeout: time.Second}
	done := make(chan struct{})
	go func() { p.Run(ctx); close(done) }()
	p.Watch([]string{srv.URL, bad.URL})

	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) && hits.Load() < 3 {
		time.Sleep(20 * time.Millisecond)
	}
	if n := hits.Load(); n < 3 {
		t.Fatalf("%d pings in 5 s at one per 100 ms", n)
	}
	got, ok := p.Get(srv.URL)
	if !ok || got.Err != nil || got.At.IsZero() || got.RTT < 5*time.Millisecond || got.RTT > time.Second {
		t.Fatalf("ping of a good server: %+v %v", got, ok)
	}
	if got, _ := p.Get(bad.URL); got.Err == nil || got.String() != "no answer" {
		t.Fatalf("ping of a server without /healthz: %+v", got)
	}
	// The good server lists two matches; the bad one none.
	if l := p.List(srv.URL); len(l) != 2 || l[0] != (client.MatchInfo{ID: "1", Name: "Match 1", Players: 3, Capacity: 8}) || l[1].ID != "2" || !l[1].Full() {
		t.Fatalf("the good server's matches: %+v", l)
	}
	if l := p.List(bad.URL); l != nil {
		t.Fatalf("the bad server's matches: %+v", l)
	}
	p.Watch([]string{bad.URL})
	if _, ok := p.Get(srv.URL); ok {
		t.Fatal("an unwatched match kept its ping")
	}
	cancel()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("Run did not end with its context")
	}
}

func TestReason(t *testing.T) {
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	for _, c := range []struct {
		err  error
		want string
	}{
		{nil, ""},
		{errors.New("bad"), "bad"},
		{fmt.Errorf("webrtc: signalling failed: %w", &url.Error{Op: "Post", URL: "http://x/signal", Err: refused}), "connection refused"},
		{fmt.Errorf("webrtc: %w", context.DeadlineExceeded), "no answer in time"},
		{fmt.Errorf("webrtc: %w", context.Canceled), "cancelled"},
	} {
		if got := Reason(c.err); got != c.want {
			t.Errorf("Reason(%v) = %q, want %q", c.err, got, c.want)
		}
	}
}

// SetMatches takes each match's ping by URL.
func TestRowsCarryPings(t *testing.T) {
	m := New()
	a, b := match("a", "10.0.0.1", 1), match("b", "10.0.0.2", 1)
	at := time.Now()
	m.SetMatches([]lan.Match{b, a}, func(u string) (Ping, bool) {
		if u == a.URL {
			return Ping{RTT: 7 * time.Millisecond, At: at}, true
		}
		return Ping{}, false
	})
	rows := m.Rows()
	if rows[0].Ping.String() != "7 ms" || rows[1].Ping.String() != "—" {
		t.Fatalf("pings %q %q", rows[0].Ping, rows[1].Ping)
	}
}

// A server that hosts several matches (GET /matches lists two or more) gets
// a row per match, in its order, each joining its match by ID; a server
// listing one or none gets one row, joined without an ID. The selection
// follows its match as the lists change.
func TestServerMatchesGetRows(t *testing.T) {
	party, solo, one := match("lan party", "10.0.0.1", 8080), match("solo", "10.0.0.2", 8080), match("one", "10.0.0.3", 8080)
	lists := map[string][]client.MatchInfo{
		party.URL: {
			{ID: "1", Name: "Match 1", Players: 5, Capacity: 8},
			{ID: "2", Name: "Match 2", Players: 8, Capacity: 8},
			{ID: "3", Name: "Match 3", Players: 0, Capacity: 8},
		},
		one.URL: {{ID: "1", Name: "Sightline match", Players: 1, Capacity: 8}},
	}
	list := func(u string) []client.MatchInfo { return lists[u] }
	m := New()
	m.SetServers([]lan.Match{solo, party, one}, nil, list)
	type row struct {
		name          string
		players, most int
		url, match    string
	}
	var got []row
	for i, r := range m.Rows() {
		if r.Kind == RowHost {
			continue
		}
		m.Select(i)
		a := m.Enter()
		if a.Kind != ActionJoin || a.Name != r.Name() {
			t.Errorf("row %d: Enter gives %+v", i, a)
		}
		p, most := r.Players()
		got = append(got, row{r.Name(), p, most, a.URL, a.Match})
	}
	want := []row{
		{"lan party · Match 1", 5, 8, party.URL, "1"},
		{"lan party · Match 2", 8, 8, party.URL, "2"},
		{"lan party · Match 3", 0, 8, party.URL, "3"},
		{"one", 2, 8, one.URL, ""}, // the beacon's players
		{"solo", 2, 8, solo.URL, ""},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("rows\n%v\nwant\n%v", got, want)
	}
	if n := m.Matches(); n != 5 {
		t.Errorf("Matches() = %d, want 5", n)
	}

	// Select Match 3; the server's list loses Match 1: the selection stays on Match 3.
	m.Select(2)
	lists[party.URL] = lists[party.URL][1:]
	m.SetServers([]lan.Match{solo, party, one}, nil, list)
	if r := m.SelectedRow(); r.Name() != "lan party · Match 3" || m.Selected() != 1 {
		t.Fatalf("selected %q at %d after Match 1 went, want lan party · Match 3 at 1", r.Name(), m.Selected())
	}
	// The server stops listing: one row for it, and the selection keeps its place.
	delete(lists, party.URL)
	m.SetServers([]lan.Match{solo, party, one}, nil, list)
	if r := m.SelectedRow(); r.Name() != "one" || m.Selected() != 1 || len(m.Rows()) != 4 {
		t.Fatalf("selected %q at %d of %d rows, want \"one\" at 1 of 4", r.Name(), m.Selected(), len(m.Rows()))
	}
}

// The watch key watches the selected match, or the address typed; the host
// row has nothing to watch.
func TestWatch(t *testing.T) {
	m := New()
	if a := m.Watch(); a.Kind != ActionInvalid || a.Err == nil {
		t.Fatalf("watch on the host row: %+v", a)
	}
	m.SetMatches([]lan.Match{match("lan party", "192.168.1.20", 8080)}, nil)
	if a := m.Watch(); a.Kind != ActionJoin || !a.Watch || a.URL != "http://192.168.1.20:8080" || a.Name != "lan party" {
		t.Fatalf("watch on a match: %+v", a)
	}
	if a := m.Enter(); a.Watch {
		t.Fatalf("Enter on a match watches: %+v", a)
	}
	m.ToggleFocus()
	m.Type([]rune("10.0.0.7:9000")...)
	if a := m.Watch(); a.Kind != ActionJoin || !a.Watch || a.URL != "http://10.0.0.7:9000" {
		t.Fatalf("watch on a typed address: %+v", a)
	}
}
