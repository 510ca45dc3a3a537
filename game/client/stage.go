package client

import "strconv"

// StageLabel is how a connecting screen names a stage of a join (one of
// Stages()) with its detail ("" for a stage not reached yet), the same on
// the desktop and in the browser.
func StageLabel(name, detail string) string {
	switch name {
	case StageICEServers:
		if n, err := strconv.Atoi(detail); err == nil && n > 0 {
			return "ICE servers fetched (" + detail + ")"
		}
		if detail == "" {
			return "ICE servers fetched"
		}
		return "ICE servers asked for (none)"
	case StageOfferSent:
		return "offer sent"
	case StageAnswer:
		return "answer received"
	case StageChecking:
		if detail != "" {
			return "ICE checks, trying " + detail
		}
		return "ICE checks"
	case StageConnected:
		if detail != "" {
			return "ICE connected via " + detail
		}
		return "ICE connected"
	case StageChannelsOpen:
		return "data channels open"
	case StageFirstSnapshot:
		return "first snapshot"
	}
	return name
}
