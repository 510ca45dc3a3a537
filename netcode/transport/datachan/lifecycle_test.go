package datachan

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sightline-game/sightline/netcode/transport"
)

// lifeConn is the smallest transport over a Lifecycle: its teardown
// records the cause it was given and can be held open by a test.
type lifeConn struct {
	*Lifecycle
	hold chan struct{} // if not nil, the teardown waits for it to close

	tornMu sync.Mutex
	torn   []error // the cause of every teardown
}

func newLifeConn(cfg Config, log *slog.Logger) *lifeConn {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	c := &lifeConn{}
	c.Lifecycle = NewLifecycle(cfg, log, c.shutdown)
	return c
}

func (c *lifeConn) shutdown(cause error) {
	if !c.StartEnding(cause) {
		return
	}
	c.tornMu.Lock()
	c.torn = append(c.torn, cause)
	c.tornMu.Unlock()
	if c.hold != nil {
		<-c.hold
	}
	c.FinishEnding()
}

// teardowns returns the causes the teardown was run for.
func (c *lifeConn) teardowns() []error {
	c.tornMu.Lock()
	defer c.tornMu.Unlock()
	return append([]error(nil), c.torn...)
}

// waitDone fails the test if c does not end within a few seconds.
func waitDone(t *testing.T, c *lifeConn) {
	t.Helper()
	select {
	case <-c.Done():
	case <-time.After(2 * time.Minute):
		t.Fatal("the connection did not end")
	}
}

func TestLifecycleEndsOnceForTheFirstCause(t *testing.T) {
	c := newLifeConn(Config{}, nil)
	first := fmt.Errorf("%w: connection failed", ErrPeerGone)
	if c.Closed() || c.Err() != nil {
		t.Fatalf("a new connection: closed %v, err %v", c.Closed(), c.Err())
	}
	c.shutdown(first)
	c.shutdown(errors.New("later"))
	if err := c.Close(); err != nil {
		t.Fatalf("Close after the end: %v", err)
	}
	c.Fail(errors.New("failed later"))
	waitDone(t, c)
	if torn := c.teardowns(); len(torn) != 1 || torn[0] != first {
		t.Fatalf("torn down for %v, want once for %v", torn, first)
	}
	if !c.Closed() || c.Err() != first {
		t.Fatalf("after the end: closed %v, err %v; want true, %v", c.Closed(), c.Err(), first)
	}
}

func TestLifecycleCloseHasNoCause(t *testing.T) {
	c := newLifeConn(Config{}, nil)
	if err := c.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	select {
	case <-c.Done():
	default:
		t.Fatal("Close returned before Done was closed")
	}
	if torn := c.teardowns(); len(torn) != 1 || torn[0] != nil {
		t.Fatalf("torn down for %v, want once for nil", torn)
	}
	if err := c.Err(); err != nil {
		t.Fatalf("ended by Close, err %v; want nil", err)
	}
}

// TestLifecycleFailFromManyGoroutines ends one connection from many
// goroutines at once: one teardown, one of the causes kept.
func TestLifecycleFailFromManyGoroutines(t *testing.T) {
	const n = 64
	for round := range 20 {
		c := newLifeConn(Config{}, nil)
		causes := make([]error, n)
		for i := range causes {
			causes[i] = fmt.Errorf("cause %d", i)
		}
		var start, wg sync.WaitGroup
		start.Add(1)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				start.Wait()
				switch i % 3 {
				case 0:
					c.Fail(causes[i])
				case 1:
					c.shutdown(causes[i])
				default:
					c.Push(transport.Snapshots, []byte{byte(i)})
				}
				_ = c.Closed()
				_ = c.Stats()
			}()
		}
		start.Done()
		wg.Wait()
		waitDone(t, c)
		torn := c.teardowns()
		if len(torn) != 1 {
			t.Fatalf("round %d: torn down %d times, want 1", round, len(torn))
		}
		err := c.Err()
		if err != torn[0] || !slices.Contains(causes, err) {
			t.Fatalf("round %d: err %v, torn down for %v; want the same, one of the causes given", round, err, torn[0])
		}
	}
}

// TestLifecycleCloseDuringEnding: a Close while another goroutine tears the
// connection down returns at once, before Done, and keeps that cause.
func TestLifecycleCloseDuringEnding(t *testing.T) {
	c := newLifeConn(Config{}, nil)
	c.hold = make(chan struct{})
	cause := fmt.Errorf("%w: channel closed", ErrPeerGone)
	c.Fail(cause)
	deadline := time.Now().Add(2 * time.Minute)
	for len(c.teardowns()) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("Fail did not start the teardown")
		}
		time.Sleep(time.Millisecond)
	}
	returned := make(chan struct{})
	go func() {
		_ = c.Close()
		close(returned)
	}()
	select {
	case <-returned:
	case <-time.After(2 * time.Minute):
		t.Fatal("Close waited for the teardown in progress")
	}
	select {
	case <-c.Done():
		t.Fatal("Done closed before the teardown finished")
	default:
	}
	if !c.Closed() || c.Err() != cause {
		t.Fatalf("during the teardown: closed %v, err %v; want true, %v", c.Closed(), c.Err(), cause)
	}
	close(c.hold)
	waitDone(t, c)
	if torn := c.teardowns(); len(torn) != 1 || torn[0] != cause {
		t.Fatalf("torn down for %v, want once for %v", torn, cause)
	}
}

func TestLifecycleReceiveAfterDone(t *testing.T) {
	c := newLifeConn(Config{}, nil)
	c.Push(transport.Events, []byte("before"))
	c.Push(transport.Snapshots, []byte("snap"))
	_ = c.Close()
	c.Push(transport.Events, []byte("after"))
	var got []string
	if n := c.Receive(func(ch transport.Channel, p []byte) { got = append(got, ch.String()+":"+string(p)) }); n != 2 {
		t.Fatalf("received %d after Done, want 2", n)
	}
	if strings.Join(got, " ") != "events:before snapshots:snap" {
		t.Fatalf("received %q after Done", got)
	}
	if err := c.AfterSend(transport.Events, 7, nil); err != nil {
		t.Fatalf("AfterSend of a message taken: %v", err)
	}
	c.Sends.Congested()
	want := transport.Stats{SentMessages: 1, SentBytes: 7, Congested: 1, ReceivedMessages: 2, ReceivedBytes: 10}
	if got := c.Stats(); got != want {
		t.Fatalf("stats %+v, want %+v", got, want)
	}
}

func TestLifecycleEventsOverflowEnds(t *testing.T) {
	c := newLifeConn(Config{ReceiveQueueLen: 2}, nil)
	for i := range 3 {
		c.Push(transport.Events, []byte{byte(i)})
	}
	waitDone(t, c)
	err := c.Err()
	if !errors.Is(err, ErrEventsOverflow) || !strings.Contains(err.Error(), "2 messages waiting") {
		t.Fatalf("err %v, want ErrEventsOverflow with 2 messages waiting", err)
	}
	if n := c.Receive(func(transport.Channel, []byte) {}); n != 2 {
		t.Fatalf("received %d of the events that fitted, want 2", n)
	}
}

func TestLifecyclePeerState(t *testing.T) {
	const timeout = 20 * time.Millisecond
	for _, tc := range []struct {
		name    string
		states  []string
		current string // what the peer connection says when the timer fires
		want    string // the end's error text; "" if it must not end
	}{
		{"failed", []string{"connected", "failed"}, "failed", "webrtc: peer gone: connection failed"},
		{"closed", []string{"closed"}, "closed", "webrtc: peer gone: connection closed"},
		{"disconnected too long", []string{"connected", "disconnected"}, "disconnected", "webrtc: peer gone: disconnected for 20ms"},
		{"disconnected twice", []string{"disconnected", "disconnected"}, "disconnected", "webrtc: peer gone: disconnected for 20ms"},
		{"reconnected", []string{"disconnected", "connected"}, "connected", ""},
		{"recovered by the time", []string{"disconnected"}, "connected", ""},
		{"reconnecting by the time", []string{"disconnected"}, "connecting", ""},
		{"connecting", []string{"new", "connecting"}, "connecting", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newLifeConn(Config{DisconnectTimeout: timeout}, nil)
			for _, s := range tc.states {
				c.PeerState(s, func() string { return tc.current })
			}
			if tc.want == "" {
				select {
				case <-c.Done():
					t.Fatalf("ended: %v", c.Err())
				case <-time.After(10 * timeout):
				}
				_ = c.Close()
				return
			}
			waitDone(t, c)
			if err := c.Err(); !errors.Is(err, ErrPeerGone) || err.Error() != tc.want {
				t.Fatalf("err %v, want %q wrapping ErrPeerGone", err, tc.want)
			}
		})
	}
}

func TestLifecycleEndStopsDisconnectTimer(t *testing.T) {
	c := newLifeConn(Config{DisconnectTimeout: time.Hour}, nil)
	c.PeerState("disconnected", func() string { return "disconnected" })
	c.mu.Lock()
	armed := c.discTime != nil
	c.mu.Unlock()
	if !armed {
		t.Fatal("disconnected armed no timer")
	}
	_ = c.Close()
	c.PeerState("disconnected", func() string { return "disconnected" })
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.discTime != nil {
		t.Fatal("a timer is still armed after the end")
	}
}

func TestLifecycleLogsTheEnd(t *testing.T) {
	for _, tc := range []struct {
		cause error
		want  string
	}{
		{nil, `level=DEBUG msg="connection closed"`},
		{fmt.Errorf("%w: connection closed", ErrPeerGone), `level=INFO msg="connection ended" reason="webrtc: peer gone: connection closed"`},
		{errors.New("rejecting peer"), `level=WARN msg="connection ended" reason="rejecting peer"`},
	} {
		var buf bytes.Buffer
		log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug, ReplaceAttr: dropTime}))
		c := newLifeConn(Config{}, log)
		c.shutdown(tc.cause)
		c.shutdown(errors.New("second"))
		if got := strings.TrimSpace(buf.String()); got != tc.want {
			t.Errorf("cause %v logged %q, want %q", tc.cause, got, tc.want)
		}
	}
}

// dropTime removes the time from log records so that they can be compared.
func dropTime(groups []string, a slog.Attr) slog.Attr {
	if len(groups) == 0 && a.Key == slog.TimeKey {
		return slog.Attr{}
	}
	return a
}

func TestLifecycleCheckSend(t *testing.T) {
	c := newLifeConn(Config{}, nil)
	for _, tc := range []struct {
		ch   transport.Channel
		n    int
		want error
	}{
		{transport.Snapshots, 0, nil},
		{transport.Events, transport.MaxMessageSize, nil},
		{transport.Events, transport.MaxMessageSize + 1, transport.ErrTooLarge},
		{transport.NumChannels, 1, ErrUnknownChannel},
	} {
		if err := c.CheckSend(tc.ch, make([]byte, tc.n)); err != tc.want {
			t.Errorf("CheckSend(%v, %d bytes) = %v, want %v", tc.ch, tc.n, err, tc.want)
		}
	}
	_ = c.Close()
	if err := c.CheckSend(transport.Inputs, []byte{1}); err != transport.ErrClosed {
		t.Fatalf("CheckSend after Close = %v, want ErrClosed", err)
	}
}

func TestLifecycleAfterSend(t *testing.T) {
	refused := errors.New("data channel is not open")

	c := newLifeConn(Config{}, nil)
	if err := c.AfterSend(transport.Inputs, 5, nil); err != nil {
		t.Fatalf("a message taken: %v", err)
	}
	err := c.AfterSend(transport.Inputs, 5, refused)
	if !errors.Is(err, transport.ErrClosed) || err.Error() != "transport: connection closed: send on inputs: data channel is not open" {
		t.Fatalf("a message refused: %v", err)
	}
	waitDone(t, c)
	if c.Err() != err {
		t.Fatalf("ended for %v, want the send's error %v", c.Err(), err)
	}
	if s := c.Stats(); s.SentMessages != 1 || s.SentBytes != 5 {
		t.Fatalf("counted %d messages, %d bytes sent; want 1, 5", s.SentMessages, s.SentBytes)
	}

	closed := newLifeConn(Config{}, nil)
	_ = closed.Close()
	if err := closed.AfterSend(transport.Events, 3, refused); err != transport.ErrClosed {
		t.Fatalf("a message refused after Close: %v, want ErrClosed", err)
	}
	if closed.Err() != nil {
		t.Fatalf("a refusal after Close changed the cause to %v", closed.Err())
	}
}
