package agui_test

import (
	"context"
	"net/http"

	agui "github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/runtime/runlog/pglog"
)

// The runs' logs in PostgreSQL: every replica of the server opens the same
// database, and any of them resumes or joins any run. (Compiled, not run:
// it needs a database; templates/aguirt's TestResumableChaos runs it.)
func ExampleWithResumableRuns_replicas() {
	serve := func(ctx context.Context, dsn string, agent agui.Agent) error {
		runs, err := pglog.Open(ctx, dsn, pglog.Options{}) // every replica, one database
		if err != nil {
			return err
		}
		defer runs.Close()
		h := agui.NewHandler(agent, agui.WithResumableRuns(runs))
		return http.ListenAndServe(":8000", h)
	}
	_ = serve
}
