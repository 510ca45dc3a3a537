//go:build !js

package webrtc

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/pion/logging"
)

// pionLoggerFactory sends pion's log records to a slog.Logger: pion's errors
// at Info and its warnings at Debug (pion warns about many harmless things,
// such as a peer's candidate that cannot be reached); its info, debug and
// trace records are dropped.
type pionLoggerFactory struct{ log *slog.Logger }

func (f pionLoggerFactory) NewLogger(scope string) logging.LeveledLogger {
	return pionLogger{log: f.log.With("pion", scope)}
}

type pionLogger struct{ log *slog.Logger }

func (l pionLogger) emit(level slog.Level, msg string) {
	l.log.Log(context.Background(), level, msg)
}

func (l pionLogger) emitf(level slog.Level, format string, args ...any) {
	if l.log.Enabled(context.Background(), level) {
		l.log.Log(context.Background(), level, fmt.Sprintf(format, args...))
	}
}

func (pionLogger) Trace(string)          {}
func (pionLogger) Tracef(string, ...any) {}
func (pionLogger) Debug(string)          {}
func (pionLogger) Debugf(string, ...any) {}
func (pionLogger) Info(string)           {}
func (pionLogger) Infof(string, ...any)  {}

func (l pionLogger) Warn(msg string)                   { l.emit(slog.LevelDebug, msg) }
func (l pionLogger) Warnf(format string, args ...any)  { l.emitf(slog.LevelDebug, format, args...) }
func (l pionLogger) Error(msg string)                  { l.emit(slog.LevelInfo, msg) }
func (l pionLogger) Errorf(format string, args ...any) { l.emitf(slog.LevelInfo, format, args...) }
