package relay

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/pion/logging"
)

// Log flood control: the TURN library logs a line per malformed request
// (a Binding request with an unknown comprehension-required attribute is
// an Error, from anyone, unauthenticated), so its Warn and Error lines
// pass at most logBurst a logWindow; the lines held back are counted, and
// one line says how many when the next passes, or within a second (the
// relay's expiry sweep), or when the relay closes.
const (
	logBurst  = 10
	logWindow = time.Second
)

// slogFactory hands the TURN library loggers that write to the relay's
// slog.Logger. The library logs per-request failures that any client can
// cause at Info and Error, so its levels are passed one step down: Trace,
// Debug and Info to Debug, Warn to Info, Error to Warn; and its Warn and
// Error lines are rate-limited, all its loggers together.
type slogFactory struct {
	log *slog.Logger
	now func() time.Time

	mu         sync.Mutex
	start      time.Time // of the current window
	passed     int       // lines passed in it
	suppressed int       // lines held back since the last summary
}

func newSlogFactory(log *slog.Logger, now func() time.Time) *slogFactory {
	return &slogFactory{log: log, now: now}
}

func (f *slogFactory) NewLogger(scope string) logging.LeveledLogger {
	return slogLogger{log: f.log.With("scope", "turn/"+scope), f: f}
}

// admit reports whether a Warn or Error line may pass now, and how many
// were held back before it, to report first.
func (f *slogFactory) admit() (ok bool, heldBack int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	now := f.now()
	if now.Sub(f.start) >= logWindow || now.Before(f.start) {
		f.start, f.passed = now, 0
	}
	if f.passed >= logBurst {
		f.suppressed++
		return false, 0
	}
	f.passed++
	heldBack, f.suppressed = f.suppressed, 0
	return true, heldBack
}

// flush reports the lines held back since the last report, if any.
func (f *slogFactory) flush() {
	f.mu.Lock()
	n := f.suppressed
	f.suppressed = 0
	f.mu.Unlock()
	f.reportHeldBack(n)
}

func (f *slogFactory) reportHeldBack(n int) {
	if n > 0 {
		f.log.Warn("relay suppressed TURN log lines", "suppressed", n, "limit_per_second", logBurst)
	}
}

type slogLogger struct {
	log *slog.Logger
	f   *slogFactory
}

func (l slogLogger) emit(level slog.Level, msg string) {
	l.log.Log(context.Background(), level, msg)
}

// limited passes a Warn or Error line (logged at level, made by msg)
// through the factory's rate limit.
func (l slogLogger) limited(level slog.Level, msg func() string) {
	if !l.log.Enabled(context.Background(), level) {
		return
	}
	ok, heldBack := l.f.admit()
	if !ok {
		return
	}
	l.f.reportHeldBack(heldBack)
	l.emit(level, msg())
}

func (l slogLogger) Trace(msg string)                  { l.emit(slog.LevelDebug, msg) }
func (l slogLogger) Tracef(format string, args ...any) { l.emitf(slog.LevelDebug, format, args...) }
func (l slogLogger) Debug(msg string)                  { l.emit(slog.LevelDebug, msg) }
func (l slogLogger) Debugf(format string, args ...any) { l.emitf(slog.LevelDebug, format, args...) }
func (l slogLogger) Info(msg string)                   { l.emit(slog.LevelDebug, msg) }
func (l slogLogger) Infof(format string, args ...any)  { l.emitf(slog.LevelDebug, format, args...) }
func (l slogLogger) Warn(msg string)                   { l.limited(slog.LevelInfo, text(msg)) }
func (l slogLogger) Warnf(format string, args ...any) {
	l.limited(slog.LevelInfo, sprintf(format, args))
}
func (l slogLogger) Error(msg string) { l.limited(slog.LevelWarn, text(msg)) }
func (l slogLogger) Errorf(format string, args ...any) {
	l.limited(slog.LevelWarn, sprintf(format, args))
}

func text(msg string) func() string { return func() string { return msg } }

func sprintf(format string, args []any) func() string {
	return func() string { return fmt.Sprintf(format, args...) }
}

// emitf formats only when the level is enabled.
func (l slogLogger) emitf(level slog.Level, format string, args ...any) {
	if l.log.Enabled(context.Background(), level) {
		l.log.Log(context.Background(), level, fmt.Sprintf(format, args...))
	}
}
