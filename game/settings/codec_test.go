package settings

import (
	"errors"
	"strings"
	"testing"
)

func TestMarshalRoundTrip(t *testing.T) {
	for _, s := range []Settings{
		Defaults(),
		{Name: "ada", MasterVolume: 0.35, EffectsVolume: 1, Mute: true, Fullscreen: true, Overlay: true},
		{Name: "seen", MasterVolume: 0.5, EffectsVolume: 0.5, HowToPlaySeen: true},
		{Name: "名前 🎯", MasterVolume: 0, EffectsVolume: 0},
	} {
		b, err := Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), `"version": 1`) {
			t.Errorf("no version in %s", b)
		}
		got, err := Unmarshal(b)
		if err != nil {
			t.Fatalf("Unmarshal(%s): %v", b, err)
		}
		if got != s {
			t.Errorf("round trip %+v gave %+v", s, got)
		}
	}
}

func TestMarshalCleans(t *testing.T) {
	b, err := Marshal(Settings{Name: "\x07bell", MasterVolume: 3})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "bell" || got.MasterVolume != 1 {
		t.Errorf("stored %+v", got)
	}
}

func TestUnmarshal(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		want Settings
		err  error
	}{
		{"every field", `{"version":1,"name":"bo","master_volume":0.5,"effects_volume":0.25,"mute":true,"fullscreen":true,"overlay":true}`,
			Settings{Name: "bo", MasterVolume: 0.5, EffectsVolume: 0.25, Mute: true, Fullscreen: true, Overlay: true}, nil},
		{"the how to play card seen", `{"version":1,"how_to_play_seen":true}`,
			Settings{MasterVolume: DefaultMasterVolume, EffectsVolume: DefaultEffectsVolume, HowToPlaySeen: true}, nil},
		{"a file from before the card: not seen", `{"version":1,"name":"old","mute":true,"overlay":true}`,
			Settings{Name: "old", MasterVolume: DefaultMasterVolume, EffectsVolume: DefaultEffectsVolume, Mute: true, Overlay: true}, nil},
		{"missing fields take defaults", `{"version":1,"name":"bo"}`,
			Settings{Name: "bo", MasterVolume: DefaultMasterVolume, EffectsVolume: DefaultEffectsVolume}, nil},
		{"zero volume kept", `{"version":1,"master_volume":0}`,
			Settings{MasterVolume: 0, EffectsVolume: DefaultEffectsVolume}, nil},
		{"cleaned on the way in", `{"version":1,"name":"\u0000x\u001by","master_volume":9,"effects_volume":-1}`,
			Settings{Name: "xy", MasterVolume: 1, EffectsVolume: 0}, nil},
		{"a newer version's known fields", `{"version":7,"name":"fut","mute":true,"shiny":42}`,
			Settings{Name: "fut", MasterVolume: DefaultMasterVolume, EffectsVolume: DefaultEffectsVolume, Mute: true}, nil},
		{"no version", `{"name":"x"}`, Defaults(), ErrVersion},
		{"not JSON", `{"version":1,`, Defaults(), ErrCorrupt},
		{"empty", ``, Defaults(), ErrCorrupt},
		{"wrong type", `{"version":1,"mute":"yes"}`, Defaults(), ErrCorrupt},
		{"an array", `[1,2]`, Defaults(), ErrCorrupt},
	} {
		got, err := Unmarshal([]byte(tc.in))
		if !errors.Is(err, tc.err) || (tc.err == nil) != (err == nil) {
			t.Errorf("%s: error %v, want %v", tc.name, err, tc.err)
		}
		if got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func TestMarshalWritesHowToPlaySeen(t *testing.T) {
	for _, seen := range []bool{false, true} {
		b, err := Marshal(Settings{MasterVolume: 1, EffectsVolume: 1, HowToPlaySeen: seen})
		if err != nil {
			t.Fatal(err)
		}
		want := `"how_to_play_seen": false`
		if seen {
			want = `"how_to_play_seen": true`
		}
		if !strings.Contains(string(b), want) {
			t.Errorf("HowToPlaySeen %v: %s lacks %s", seen, b, want)
		}
	}
}
