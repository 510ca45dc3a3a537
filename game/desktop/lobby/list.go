package lobby

import (
	"cmp"
	"slices"
	"strings"

	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/replays"
	"github.com/sightline-game/sightline/netcode/lan"
)

// RowKind tells the list's rows apart.
type RowKind int

const (
	// RowMatch is a match heard on the LAN.
	RowMatch RowKind = iota
	// RowHost is the row after the matches: "Host a match here".
	RowHost
	// RowReplay is a replay of a match hosted here, after the host row,
	// newest first.
	RowReplay
)

// Row is one line of the list.
type Row struct {
	Kind  RowKind
	Match lan.Match // for RowMatch: the server heard on the LAN
	Ping  Ping      // for RowMatch; zero until the first answer
	// Hosted is, on a server hosting several matches, the one match of it
	// this row joins (GET /matches lists them; a server lists ?match= IDs).
	// Its ID is empty on a server's single row: joining lets the server
	// choose.
	Hosted client.MatchInfo
	// Replay is, for RowReplay, the file.
	Replay replays.Replay
}

// Name is the row's name as the menu shows it: the server's, followed by
// the match's on a server hosting several ("LAN party · Match 2").
func (r Row) Name() string {
	if r.Hosted.ID == "" {
		return r.Match.Name
	}
	return r.Match.Name + " · " + r.Hosted.Name
}

// Invite returns the invite link the row's host announced for players
// beyond the LAN (cmd/game -host -invite), "" for none: the menu shows it
// on the row's line, under the name. Joining from the row still goes to
// the address the beacon came from.
func (r Row) Invite() string {
	if r.Kind != RowMatch {
		return ""
	}
	return r.Match.Invite
}

// Players returns the players in the row's match and the most it takes:
// the listed match's on a server hosting several, else the server's beacon.
func (r Row) Players() (players, most int) {
	if r.Hosted.ID == "" {
		return r.Match.Players, r.Match.MaxPlayers
	}
	return r.Hosted.Players, r.Hosted.Capacity
}

// key identifies a row across refreshes: its server's URL (and match ID),
// or hostKey.
func (r Row) key() string {
	if r.Kind == RowHost {
		return hostKey
	}
	if r.Kind == RowReplay {
		return "replay:" + r.Replay.Path
	}
	if r.Hosted.ID != "" {
		return r.Match.URL + "#" + r.Hosted.ID
	}
	return r.Match.URL
}

const hostKey = "host" // not a URL, so no match's key

// Focus is where the keys go: the list, or the address field.
type Focus int

const (
	FocusList Focus = iota
	FocusAddress
)

// ActionKind is what Enter asks for.
type ActionKind int

const (
	// ActionNone: nothing to do.
	ActionNone ActionKind = iota
	// ActionJoin: join the match server at Action.URL.
	ActionJoin
	// ActionHost: host a match in this process and play it.
	ActionHost
	// ActionInvalid: the typed address is not one; Action.Err says why.
	ActionInvalid
	// ActionReplay: play the replay at Action.URL (a file's path).
	ActionReplay
)

// Action is what Enter asks for.
type Action struct {
	Kind  ActionKind
	URL   string // for ActionJoin
	Match string // for ActionJoin: the ID of the server's match to join; empty: the server chooses
	Name  string // for ActionJoin: the match's name, or the address typed
	// Watch, for ActionJoin, joins to watch the match, not to play it (a
	// spectator: POST /signal?watch=1).
	Watch bool
	Err   error // for ActionInvalid
}

// MaxAddress bounds the address field, in runes.
const MaxAddress = 200

// Model is the start menu's state: the rows (the matches heard, sorted by
// name then address, and "Host a match here" last), the selected row, the
// address field and which of the two has the keys.
//
// The selection follows its match as matches come, go and re-sort. Until
// the player picks a row, the first row is selected, so the first match
// heard is one Enter away.
type Model struct {
	rows    []Row
	replays []replays.Replay // listed after the host row
	sel     int
	selKey  string
	chosen  bool // the player picked the selected row
	focus   Focus
	address []rune
}

// New returns a menu with no matches: only "Host a match here", selected.
func New() *Model {
	m := &Model{}
	m.SetMatches(nil, nil)
	return m
}

// SetMatches replaces the matches listed. ping, if set, gives each match's
// latest round trip by URL.
func (m *Model) SetMatches(ms []lan.Match, ping func(url string) (Ping, bool)) {
	m.SetServers(ms, ping, nil)
}

// SetServers replaces the servers listed, as SetMatches does; list, if
// set, gives the matches each server hosts by URL (see Pinger.List). A
// server listing two or more gets a row per match, in the server's order,
// each joining its match; any other a single row, as SetMatches gives.
func (m *Model) SetServers(ms []lan.Match, ping func(url string) (Ping, bool), list func(url string) []client.MatchInfo) {
	m.rows = m.rows[:0]
	for _, mt := range ms {
		r := Row{Kind: RowMatch, Match: mt}
		if ping != nil {
			r.Ping, _ = ping(mt.URL)
		}
		var hosted []client.MatchInfo
		if list != nil {
			hosted = list(mt.URL)
		}
		if len(hosted) < 2 {
			m.rows = append(m.rows, r)
			continue
		}
		for _, h := range hosted {
			r.Hosted = h
			m.rows = append(m.rows, r)
		}
	}
	slices.SortStableFunc(m.rows, func(a, b Row) int { // stable: a server's matches stay in its order
		if c := cmp.Compare(strings.ToLower(a.Match.Name), strings.ToLower(b.Match.Name)); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Match.Name, b.Match.Name); c != 0 {
			return c
		}
		return cmp.Compare(a.Match.URL, b.Match.URL)
	})
	m.rows = append(m.rows, Row{Kind: RowHost})
	for _, r := range m.replays {
		m.rows = append(m.rows, Row{Kind: RowReplay, Replay: r})
	}

	switch i := m.find(m.selKey); {
	case !m.chosen:
		m.sel = 0
	case i >= 0:
		m.sel = i
	default:
		// The chosen match went away: keep the place in the list.
		m.sel = min(m.sel, len(m.rows)-1)
	}
	m.selKey = m.rows[m.sel].key()
}

func (m *Model) find(key string) int {
	for i, r := range m.rows {
		if r.key() == key {
			return i
		}
	}
	return -1
}

// Rows returns the rows, matches first and "Host a match here" last. The
// slice is the model's own until the next SetMatches.
func (m *Model) Rows() []Row { return m.rows }

// Matches returns the number of matches listed.
func (m *Model) Matches() int { return len(m.rows) - 1 - len(m.replays) }

// SetReplays replaces the replays listed after the host row (newest
// first), keeping the matches.
func (m *Model) SetReplays(rs []replays.Replay) {
	m.replays = slices.Clone(rs)
	matches := make([]Row, 0, len(m.rows))
	for _, r := range m.rows {
		if r.Kind == RowMatch {
			matches = append(matches, r)
		}
	}
	m.rows = append(m.rows[:0], matches...)
	m.rows = append(m.rows, Row{Kind: RowHost})
	for _, r := range m.replays {
		m.rows = append(m.rows, Row{Kind: RowReplay, Replay: r})
	}
	if i := m.find(m.selKey); i >= 0 {
		m.sel = i
	} else {
		m.sel = min(m.sel, len(m.rows)-1)
	}
	m.selKey = m.rows[m.sel].key()
}

// Selected returns the selected row's index.
func (m *Model) Selected() int { return m.sel }

// SelectedRow returns the selected row.
func (m *Model) SelectedRow() Row { return m.rows[m.sel] }

// Move moves the selection d rows down (up if negative), stopping at the
// ends, and gives the list the keys.
func (m *Model) Move(d int) {
	m.Select(min(max(m.sel+d, 0), len(m.rows)-1))
}

// Select selects row i (as a click does) and gives the list the keys. An
// index out of range changes nothing.
func (m *Model) Select(i int) {
	if i < 0 || i >= len(m.rows) {
		return
	}
	m.sel, m.selKey, m.chosen = i, m.rows[i].key(), true
	m.focus = FocusList
}

// Focus returns where the keys go.
func (m *Model) Focus() Focus { return m.focus }

// SetFocus gives the keys to the list or the address field.
func (m *Model) SetFocus(f Focus) { m.focus = f }

// ToggleFocus moves the keys between the list and the address field (Tab).
func (m *Model) ToggleFocus() {
	if m.focus == FocusList {
		m.focus = FocusAddress
	} else {
		m.focus = FocusList
	}
}

// Address returns the address typed so far.
func (m *Model) Address() string { return string(m.address) }

// Type appends typed characters to the address field, dropping control
// characters and anything past MaxAddress.
func (m *Model) Type(rs ...rune) {
	for _, r := range rs {
		if r < ' ' || r == 0x7f || (r >= 0x80 && r < 0xa0) || len(m.address) >= MaxAddress {
			continue
		}
		m.address = append(m.address, r)
	}
}

// Backspace deletes the address field's last character.
func (m *Model) Backspace() {
	if n := len(m.address); n > 0 {
		m.address = m.address[:n-1]
	}
}

// Enter returns what Enter asks for where the keys are: in the list, join
// the selected match or host one; in the address field, join the address
// typed if it parses.
func (m *Model) Enter() Action {
	if m.focus == FocusAddress {
		u, err := ParseAddress(m.Address())
		if err != nil {
			return Action{Kind: ActionInvalid, Err: err}
		}
		return Action{Kind: ActionJoin, URL: u, Name: u}
	}
	r := m.rows[m.sel]
	if r.Kind == RowHost {
		return Action{Kind: ActionHost}
	}
	if r.Kind == RowReplay {
		return Action{Kind: ActionReplay, URL: r.Replay.Path, Name: r.Replay.Name()}
	}
	return Action{Kind: ActionJoin, URL: r.Match.URL, Match: r.Hosted.ID, Name: r.Name()}
}

// Watch returns what the watch key (or a row's watch button) asks for: to
// watch the selected match, or, in the address field, the address typed.
// The host row has nothing to watch.
func (m *Model) Watch() Action {
	a := m.Enter()
	switch a.Kind {
	case ActionJoin:
		a.Watch = true
	case ActionHost:
		return Action{Kind: ActionInvalid, Err: errNothingToWatch}
	case ActionReplay:
		return a // a replay is watched whichever way it is opened
	}
	return a
}

// Window returns the first row to show so that the selected row is among
// the n shown, keeping first (the previous window's) when it already is.
func (m *Model) Window(first, n int) int {
	if n <= 0 {
		return 0
	}
	first = min(first, max(len(m.rows)-n, 0))
	if m.sel < first {
		first = m.sel
	}
	if m.sel >= first+n {
		first = m.sel - n + 1
	}
	return max(first, 0)
}
