package clipboard

import (
	"context"
	"fmt"
)

// pasteboard is macOS's clipboard programs.
func pasteboard() []tool {
	return []tool{{name: "pbcopy", write: []string{"pbcopy"}, read: []string{"pbpaste"}}}
}

// Write puts text on the clipboard.
func Write(ctx context.Context, text string) error {
	t, ok := firstFound(pasteboard())
	if !ok {
		return fmt.Errorf("%w: pbcopy not found", ErrUnavailable)
	}
	return runWrite(ctx, t, text)
}

// Read returns the text on the clipboard.
func Read(ctx context.Context) (string, error) {
	t, ok := firstFound(pasteboard())
	if !ok {
		return "", fmt.Errorf("%w: pbpaste not found", ErrUnavailable)
	}
	return runRead(ctx, t)
}
