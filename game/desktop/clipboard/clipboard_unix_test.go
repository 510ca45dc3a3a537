//go:build !js && !windows && !darwin

package clipboard

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// Without a display there is no clipboard, and the error says why.
func TestNoDisplayIsUnavailable(t *testing.T) {
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	err := Write(context.Background(), "http://example.org/")
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "no display") {
		t.Errorf("Write without a display: %v, want ErrUnavailable saying so", err)
	}
	if _, err := Read(context.Background()); !errors.Is(err, ErrUnavailable) {
		t.Errorf("Read without a display: %v, want ErrUnavailable", err)
	}
}

// A Wayland session tries wl-copy before the X11 programs; X11 alone
// tries xclip, then xsel.
func TestFindOrder(t *testing.T) {
	env := func(vars map[string]string) func(string) string {
		return func(k string) string { return vars[k] }
	}
	both := map[string]string{"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"}
	tools := x11Tools()
	if got := waylandTools(); got[0].name != "wl-copy" || tools[0].name != "xclip" || tools[1].name != "xsel" {
		t.Fatalf("tools: %v, %v", got, tools)
	}
	if _, err := find(env(nil)); !errors.Is(err, ErrUnavailable) {
		t.Errorf("find with no display: %v", err)
	}
	if tl, err := find(env(both)); err == nil && tl.name != "wl-copy" && tl.name != "xclip" && tl.name != "xsel" {
		t.Errorf("find: %q", tl.name)
	}
}
