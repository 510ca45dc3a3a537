//go:build !js

package clipboard

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

// tool is a clipboard program: the command that writes its standard input
// to the clipboard, and the one that prints the clipboard.
type tool struct {
	name        string
	write, read []string
}

// runWrite runs t's write command with text on its standard input. Its
// output is discarded: the X11 programs leave a child in the background to
// serve the selection, which would hold a pipe open.
func runWrite(ctx context.Context, t tool, text string) error {
	cmd := exec.CommandContext(ctx, t.write[0], t.write[1:]...)
	cmd.Stdin = strings.NewReader(text)
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%w: %s: %w", ErrRefused, t.name, err)
	}
	return nil
}

// runRead runs t's read command and returns what it printed.
func runRead(ctx context.Context, t tool) (string, error) {
	cmd := exec.CommandContext(ctx, t.read[0], t.read[1:]...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) && stderr.Len() > 0 {
			return "", fmt.Errorf("%w: %s: %s", ErrRefused, t.name, strings.TrimSpace(stderr.String()))
		}
		return "", fmt.Errorf("%w: %s: %w", ErrRefused, t.name, err)
	}
	return string(out), nil
}

// firstFound returns the first of tools whose programs are installed.
func firstFound(tools []tool) (tool, bool) {
	for _, t := range tools {
		if _, err := exec.LookPath(t.write[0]); err != nil {
			continue
		}
		if _, err := exec.LookPath(t.read[0]); err != nil {
			continue
		}
		return t, true
	}
	return tool{}, false
}
