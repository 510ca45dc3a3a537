package lobby

import (
	"testing"

	"github.com/sightline-game/sightline/game/replays"
	"github.com/sightline-game/sightline/netcode/lan"
)

// Replays are listed after "Host a match here", newest first as given;
// they are not matches; Enter and V on one play it; a refresh of the
// matches keeps them and the selection.
func TestReplaysAfterTheHostRow(t *testing.T) {
	m := New()
	rs := []replays.Replay{{Path: "/r/b.slreplay", Bytes: 9}, {Path: "/r/a.slreplay", Bytes: 7}}
	m.SetReplays(rs)
	if m.Matches() != 0 || len(m.Rows()) != 3 || m.Rows()[0].Kind != RowHost || m.Rows()[1].Kind != RowReplay || m.Rows()[2].Replay.Path != "/r/a.slreplay" {
		t.Fatalf("rows %+v", m.Rows())
	}
	m.Move(2)
	if a := m.Enter(); a.Kind != ActionReplay || a.URL != "/r/a.slreplay" {
		t.Fatalf("Enter on a replay: %+v", a)
	}
	if a := m.Watch(); a.Kind != ActionReplay || a.URL != "/r/a.slreplay" {
		t.Fatalf("V on a replay: %+v", a)
	}
	m.SetMatches([]lan.Match{{Beacon: lan.Beacon{Name: "x"}, URL: "http://10.0.0.2:8080"}}, nil)
	if m.Matches() != 1 || len(m.Rows()) != 4 || m.SelectedRow().Replay.Path != "/r/a.slreplay" {
		t.Fatalf("after a refresh: %d matches, rows %+v, selected %+v", m.Matches(), m.Rows(), m.SelectedRow())
	}
}
