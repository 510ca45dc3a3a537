package datachan_test

import (
	"fmt"
	"log/slog"
	"os"

	"github.com/sightline-game/sightline/netcode/transport"
	"github.com/sightline-game/sightline/netcode/transport/datachan"
)

// A transport's teardown starts the end, frees its own resources and then
// finishes it. A message that arrived before the end is still there after
// Done.
func ExampleLifecycle() {
	log := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) == 0 && a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	}))
	var l *datachan.Lifecycle
	l = datachan.NewLifecycle(datachan.Config{}, log, func(cause error) {
		if !l.StartEnding(cause) {
			return
		}
		fmt.Println("closing the channels and the peer connection")
		l.FinishEnding()
	})

	l.Push(transport.Events, []byte("hello"))
	l.PeerState("failed", nil)
	<-l.Done()
	l.Receive(func(ch transport.Channel, p []byte) { fmt.Println(ch, string(p)) })
	fmt.Println(l.Err())
	// Output:
	// level=INFO msg="connection ended" reason="webrtc: peer gone: connection failed"
	// closing the channels and the peer connection
	// events hello
	// webrtc: peer gone: connection failed
}
