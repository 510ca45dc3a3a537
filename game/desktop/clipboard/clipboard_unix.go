//go:build !js && !windows && !darwin

package clipboard

import (
	"context"
	"fmt"
	"os"
)

// waylandTools is a Wayland session's clipboard program.
func waylandTools() []tool {
	return []tool{{name: "wl-copy", write: []string{"wl-copy"}, read: []string{"wl-paste", "--no-newline"}}}
}

// x11Tools is X11's clipboard programs, in the order they are tried.
func x11Tools() []tool {
	return []tool{
		{name: "xclip", write: []string{"xclip", "-selection", "clipboard", "-in"}, read: []string{"xclip", "-selection", "clipboard", "-out"}},
		{name: "xsel", write: []string{"xsel", "--clipboard", "--input"}, read: []string{"xsel", "--clipboard", "--output"}},
	}
}

// Write puts text on the clipboard.
func Write(ctx context.Context, text string) error {
	t, err := find(os.Getenv)
	if err != nil {
		return err
	}
	return runWrite(ctx, t, text)
}

// Read returns the text on the clipboard.
func Read(ctx context.Context) (string, error) {
	t, err := find(os.Getenv)
	if err != nil {
		return "", err
	}
	return runRead(ctx, t)
}

// find picks the clipboard program of the session getenv describes:
// Wayland's, else X11's.
func find(getenv func(string) string) (tool, error) {
	var tools []tool
	if getenv("WAYLAND_DISPLAY") != "" {
		tools = append(tools, waylandTools()...)
	}
	if getenv("DISPLAY") != "" {
		tools = append(tools, x11Tools()...)
	}
	if len(tools) == 0 {
		return tool{}, fmt.Errorf("%w: no display (neither DISPLAY nor WAYLAND_DISPLAY is set)", ErrUnavailable)
	}
	t, ok := firstFound(tools)
	if !ok {
		return tool{}, fmt.Errorf("%w: install xclip, xsel or (Wayland) wl-clipboard", ErrUnavailable)
	}
	return t, nil
}
