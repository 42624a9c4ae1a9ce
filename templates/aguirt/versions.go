package aguirt

import (
	"context"
	"log/slog"
	"slices"

	agui "github.com/agui-gen/agui-gen/gen/agui"
)

// streamVersion is the version a run's events are written in for a client
// whose input declared declared, when it is one of earlier, the earlier
// versions the package was generated to serve (agui.EarlierVersions,
// oldest first); "" means ours, the package's own version.
//
// A client has every event and member of each version up to its own, so
// it gets the latest earlier version no later than its own. One older than
// every earlier version known, or one that declares none (clients declared
// their version from 1.0 on), gets the oldest: what it lacks besides cannot
// be told. A client of this version or a later one, or one whose version
// cannot be read, gets this version.
func streamVersion(declared *string, earlier []string, ours string) string {
	if len(earlier) == 0 {
		return ""
	}
	if declared == nil {
		return earlier[0]
	}
	client, ok := parseMajorMinor(*declared)
	own, _ := parseMajorMinor(ours)
	if !ok || compareMajorMinor(client, own) >= 0 {
		return ""
	}
	best := earlier[0]
	for _, v := range earlier {
		if mm, _ := parseMajorMinor(v); compareMajorMinor(mm, client) <= 0 {
			best = v
		}
	}
	return best
}

func compareMajorMinor(a, b [2]int) int {
	if a[0] != b[0] {
		return a[0] - b[0]
	}
	return a[1] - b[1]
}

// protoTransportFor reports whether a client whose input declared declared
// can read the protobuf transport: the frames are numbered by the
// protobuf ledger, which a client has from 1.0 on, the first version that
// declares itself. A client that declares no version has an older
// protobuf schema, which lacks messages this version sends (@ag-ui/proto
// 0.0.59 has no REASONING_* messages), and reads SSE, which it picks by
// the Content-Type, as every client does.
func protoTransportFor(declared *string) bool { return declared != nil }

// downgrader rewrites the events of one run for a client of an earlier
// version: what that version lacks is left out, each event type that is
// left out logged once, at debug level. The stream calls it with its lock
// held.
type downgrader struct {
	version string
	ctx     context.Context
	logger  *slog.Logger
	logged  []agui.EventType
}

func newDowngrader(ctx context.Context, logger *slog.Logger, version string) *downgrader {
	return &downgrader{version: version, ctx: ctx, logger: logger}
}

// event returns ev as the client reads it, or nil when it is left out.
func (d *downgrader) event(ev agui.Event) agui.Event {
	out := agui.DowngradeEvent(d.version, ev)
	if out == nil && !slices.Contains(d.logged, ev.Type()) {
		d.logged = append(d.logged, ev.Type())
		d.logger.LogAttrs(d.ctx, slog.LevelDebug, "agui: left out events the client's protocol version does not have",
			slog.String("type", string(ev.Type())), slog.String("clientVersion", d.version))
	}
	return out
}
