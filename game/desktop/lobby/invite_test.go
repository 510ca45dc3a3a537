package lobby

import (
	"net/netip"
	"testing"

	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/netcode/lan"
)

// A host announcing its invite link has it on its line (on every line of
// a server hosting several matches); the others and "Host a match here"
// have none, and Enter on the line still joins at the beacon's sender.
func TestRowShowsTheHostsInvite(t *testing.T) {
	invite := "http://203.0.113.5:8090/i/jcmeru3phbt75u4q2e535jkiny"
	b, err := lan.ParseBeacon(lan.AppendBeacon(nil, lan.Beacon{Name: "ada", Players: 1, MaxPlayers: 8, HTTPPort: 8080, Invite: invite}))
	if err != nil {
		t.Fatal(err)
	}
	from := netip.MustParseAddr("192.168.1.20")
	ada := lan.Match{Beacon: b, From: from, URL: "http://192.168.1.20:8080"}
	party := match("party", "192.168.1.30", 8080)
	m := New()
	m.SetServers([]lan.Match{ada, party}, nil, func(url string) []client.MatchInfo {
		if url == party.URL {
			return []client.MatchInfo{{ID: "1", Name: "Match 1"}, {ID: "2", Name: "Match 2"}}
		}
		return nil
	})
	var got []string
	for _, r := range m.Rows() {
		got = append(got, r.Name()+"="+r.Invite())
	}
	want := []string{"ada=" + invite, "party · Match 1=", "party · Match 2=", "="}
	if len(got) != len(want) {
		t.Fatalf("rows %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("rows %q, want %q", got, want)
		}
	}
	if a := m.Enter(); a.Kind != ActionJoin || a.URL != "http://192.168.1.20:8080" {
		t.Errorf("Enter on the host with an invite: %+v, want to join at its LAN address", a)
	}

	// A server hosting several matches with an invite: every line has it.
	many := ada
	many.Name = "hall"
	m.SetServers([]lan.Match{many}, nil, func(string) []client.MatchInfo {
		return []client.MatchInfo{{ID: "1", Name: "Match 1"}, {ID: "2", Name: "Match 2"}}
	})
	for _, r := range m.Rows()[:2] {
		if r.Invite() != invite {
			t.Errorf("%s: invite %q", r.Name(), r.Invite())
		}
	}
}
