package clipboard

import (
	"context"
	"fmt"
	"strings"
)

// windowsTools is Windows's clipboard programs: clip.exe writes, and
// PowerShell reads.
func windowsTools() []tool {
	return []tool{{name: "clip", write: []string{"clip.exe"}, read: []string{"powershell.exe", "-NoProfile", "-Command", "Get-Clipboard"}}}
}

// Write puts text on the clipboard.
func Write(ctx context.Context, text string) error {
	t, ok := firstFound(windowsTools())
	if !ok {
		return fmt.Errorf("%w: clip.exe not found", ErrUnavailable)
	}
	return runWrite(ctx, t, text)
}

// Read returns the text on the clipboard (without the line end
// Get-Clipboard adds).
func Read(ctx context.Context) (string, error) {
	t, ok := firstFound(windowsTools())
	if !ok {
		return "", fmt.Errorf("%w: powershell.exe not found", ErrUnavailable)
	}
	s, err := runRead(ctx, t)
	return strings.TrimRight(s, "\r\n"), err
}
