package interop_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agui-gen/agui-gen/gen/agui"
	"github.com/agui-gen/agui-gen/gen/agui/metasqlite"
)

// metaScriptReport is what run-httpagent-meta.mjs prints.
type metaScriptReport struct {
	Intake, Again, Query struct {
		Status int             `json:"status"`
		Body   json.RawMessage `json:"body"`
	}
	Run, Native bridgedRun
	Warnings    []string
}

// TestHTTPAgentWithMeta: feedback a browser POSTs to {path}/meta (META and
// META in CUSTOM, in one batch) is stored in SQLite once, however often it
// is sent; @ag-ui/client's HttpAgent then runs on the thread and receives
// it replayed, with the agent's own META, as CUSTOM{name:"meta"}; every
// event validates against the official schema and @ag-ui/core, and every
// META it carries against our META schema. From a handler that sends META
// natively, HttpAgent 1.0.0 drops the META without a word, which is why
// CUSTOM is the default.
func TestHTTPAgentWithMeta(t *testing.T) {
	requireNode(t)
	ctx := context.Background()
	store, err := metasqlite.Open(ctx, filepath.Join(t.TempDir(), "meta.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	agent := agui.AgentFunc(func(ctx context.Context, in *agui.RunAgentInput, s *agui.Stream) error {
		if err := s.Text("It is sunny in Paris."); err != nil {
			return err
		}
		return s.Meta(&agui.AnalyticsPayload{Event: "answered"})
	})
	srv := httptest.NewServer(agui.NewHandler(agent, agui.WithMetaStore(store), agui.WithMetaReplay()))
	defer srv.Close()
	native := httptest.NewServer(agui.NewHandler(agent, agui.WithNativeMeta()))
	defer native.Close()

	var out metaScriptReport
	raw := runNode(t, nil, "run-httpagent-meta.mjs", srv.URL, native.URL)
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%v\n%s", err, raw)
	}

	var intake, again agui.MetaIntake
	if out.Intake.Status != http.StatusOK || json.Unmarshal(out.Intake.Body, &intake) != nil || len(intake.Events) != 2 {
		t.Fatalf("intake: %d %s", out.Intake.Status, out.Intake.Body)
	}
	if out.Again.Status != http.StatusOK || json.Unmarshal(out.Again.Body, &again) != nil || len(again.Events) != 2 ||
		again.Events[0].Seq != intake.Events[0].Seq || again.Events[1].Seq != intake.Events[1].Seq {
		t.Errorf("sent again: %d %s, first %s", out.Again.Status, out.Again.Body, out.Intake.Body)
	}
	stored, err := store.Meta(ctx, agui.MetaQuery{ThreadID: "thread-feedback"})
	if err != nil || len(stored) != 2 || *stored[1].Event.ID != "fb-2" || stored[1].Event.Payload.(*agui.NotePayload).Text != "Cite the source, please." {
		t.Fatalf("in SQLite: %+v %v", stored, err)
	}

	if !out.Run.OK {
		t.Fatalf("HttpAgent refused the run: %s", out.Run.Error)
	}
	var lines []schemaLine
	var metaIDs []string
	for _, raw := range out.Run.Events {
		lines = append(lines, schemaLine{Schema: "agui", Def: "Event", Value: raw})
		var custom struct {
			Type  string          `json:"type"`
			Name  string          `json:"name"`
			Value json.RawMessage `json:"value"`
		}
		if json.Unmarshal(raw, &custom) != nil || custom.Type != "CUSTOM" || custom.Name != agui.MetaCustomName {
			continue
		}
		lines = append(lines, schemaLine{Schema: "meta", Def: "MetaEvent", Value: custom.Value})
		var m agui.MetaEvent
		if err := m.UnmarshalJSON(custom.Value); err != nil {
			t.Fatalf("a CUSTOM meta event HttpAgent received: %v", err)
		}
		metaIDs = append(metaIDs, m.Payload.MetaType())
	}
	if strings.Join(metaIDs, ",") != "thumbs_up,note,analytics" {
		t.Errorf("META the run carried: %v (events %v)", metaIDs, out.Run.EventTypes)
	}
	if last := out.Run.Messages[len(out.Run.Messages)-1]; !strings.Contains(string(last), "It is sunny in Paris.") {
		t.Errorf("HttpAgent's last message: %s", last)
	}
	checkSchemaLines(t, lines)

	var page agui.MetaPage
	if out.Query.Status != http.StatusOK || json.Unmarshal(out.Query.Body, &page) != nil || len(page.Events) != 1 || *page.Events[0].Event.ID != "fb-1" {
		t.Errorf("query by metaType: %d %s", out.Query.Status, out.Query.Body)
	}
	if !out.Native.OK || slices.Contains(out.Native.EventTypes, "META") || !slices.Contains(out.Native.EventTypes, "TEXT_MESSAGE_CONTENT") {
		t.Errorf("HttpAgent against native META (it used to drop them; if it keeps them now, CUSTOM need not be the default): %s %v", out.Native.Error, out.Native.EventTypes)
	}
}
