package relay

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/pion/logging"
)

// slogFactory hands the TURN library loggers that write to the relay's
// slog.Logger. The library logs per-request failures that any client can
// cause at Info and Error, so its levels are passed one step down: Trace,
// Debug and Info to Debug, Warn to Info, Error to Warn.
type slogFactory struct {
	log *slog.Logger
}

func (f slogFactory) NewLogger(scope string) logging.LeveledLogger {
	return slogLogger{log: f.log.With("scope", "turn/"+scope)}
}

type slogLogger struct {
	log *slog.Logger
}

func (l slogLogger) emit(level slog.Level, msg string) {
	l.log.Log(context.Background(), level, msg)
}

func (l slogLogger) Trace(msg string)                  { l.emit(slog.LevelDebug, msg) }
func (l slogLogger) Tracef(format string, args ...any) { l.emitf(slog.LevelDebug, format, args...) }
func (l slogLogger) Debug(msg string)                  { l.emit(slog.LevelDebug, msg) }
func (l slogLogger) Debugf(format string, args ...any) { l.emitf(slog.LevelDebug, format, args...) }
func (l slogLogger) Info(msg string)                   { l.emit(slog.LevelDebug, msg) }
func (l slogLogger) Infof(format string, args ...any)  { l.emitf(slog.LevelDebug, format, args...) }
func (l slogLogger) Warn(msg string)                   { l.emit(slog.LevelInfo, msg) }
func (l slogLogger) Warnf(format string, args ...any)  { l.emitf(slog.LevelInfo, format, args...) }
func (l slogLogger) Error(msg string)                  { l.emit(slog.LevelWarn, msg) }
func (l slogLogger) Errorf(format string, args ...any) { l.emitf(slog.LevelWarn, format, args...) }

// emitf formats only when the level is enabled.
func (l slogLogger) emitf(level slog.Level, format string, args ...any) {
	if l.log.Enabled(context.Background(), level) {
		l.log.Log(context.Background(), level, fmt.Sprintf(format, args...))
	}
}
