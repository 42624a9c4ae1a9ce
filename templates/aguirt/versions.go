package aguirt

import (
	"context"
	"log/slog"
	"slices"

	agui "github.com/agui-gen/agui-gen/gen/agui"
)

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
