package main

import (
	"log/slog"
	"os"
	"time"

	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/game/replays"
	"github.com/sightline-game/sightline/netcode/broadcast"
)

// replaysDir is the folder -replays names: the config folder's replays by
// default, "" for -replays off (or no config folder).
func replaysDir(flag string) string {
	switch flag {
	case "off":
		return ""
	case "":
		dir, err := replays.Dir()
		if err != nil {
			return ""
		}
		return dir
	}
	return flag
}

// recording is a hosted match's replay file, or nothing.
type recording struct {
	f   *os.File
	rec *broadcast.Recorder
}

// record starts the replay of a match hosted here in dir (none for "").
func record(log *slog.Logger, dir string) (*recording, error) {
	if dir == "" {
		return nil, nil
	}
	f, err := replays.Create(dir, time.Now())
	if err != nil {
		return nil, err
	}
	log.Info("recording the match", "file", f.Name())
	return &recording{f: f, rec: broadcast.NewRecorder(f, broadcast.ReplayHeader{
		Protocol: uint32(protocol.Version), TickRate: protocol.DefaultTickRate, FragmentTicks: broadcast.DefaultFragmentTicks,
	})}, nil
}

// sinks are the match's broadcast sinks: the recorder, if any.
func (r *recording) sinks() []broadcast.Sink {
	if r == nil {
		return nil
	}
	return []broadcast.Sink{r.rec}
}

// close closes the file once the match stopped.
func (r *recording) close(log *slog.Logger) {
	if r == nil {
		return
	}
	err := r.rec.Err()
	if cerr := r.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		log.Warn("recording the match", "file", r.f.Name(), "err", err)
	}
}
