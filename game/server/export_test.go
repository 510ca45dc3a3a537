package server

// ClientMemory is what the server holds for one client beyond its view
// history, for the memory tests.
type ClientMemory struct {
	EventsQueued   int // events in the client's outbox, not yet framed and sent
	RecordsPending int // records the client has not acknowledged
	RecordsHeld    int // records the client's replica sender tracks
	HistoryBytes   int
	Found          bool
}

// MemoryOf reports what the server holds for player id (Found is false when
// it is not connected). Call it from the goroutine that steps the server.
func (s *Server) MemoryOf(id PlayerID) ClientMemory {
	for _, c := range s.clients {
		if c.id == id {
			return ClientMemory{
				EventsQueued: c.st.out.Len(), RecordsPending: c.st.records.Pending(),
				RecordsHeld: c.st.records.Len(), HistoryBytes: c.views.HistoryBytes(), Found: true,
			}
		}
	}
	return ClientMemory{}
}
