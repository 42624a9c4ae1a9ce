package a2a_test

// Benchmarks of gen/a2a against the protobuf reference on one realistic
// Task, for benchstat pivoting on /impl:
//
//	go test ./tests/a2a/ -run XXX -bench . -benchmem -count 6 > bench.txt
//	benchstat -col /impl bench.txt
//
// impl=agui is gen/a2a; impl=protojson and impl=proto are protojson and
// proto.Marshal on a dynamicpb message built from the same descriptor (what
// TestJSONEquivalence checks against); impl=a2ago is encoding/json on the
// A2A Go SDK's Task (github.com/a2aproject/a2a-go/v2/a2a); protojson-a2apb
// and proto-a2apb run protojson and proto on the SDK's protoc-gen-go Task,
// the fast path of the protobuf runtime, for scale.

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	a2ago "github.com/a2aproject/a2a-go/v2/a2a"
	a2apb "github.com/a2aproject/a2a-go/v2/a2apb/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/agui-gen/agui-gen/gen/a2a"
)

// benchTask is a finished research task: six messages of text and
// structured data, a status with a message and a timestamp, two artifacts
// of several parts, metadata at each level.
func benchTask() *a2a.Task {
	ts := time.Date(2026, 11, 22, 9, 30, 15, 123456000, time.UTC)
	const ctx = "0196f0c2-7a53-7d2e-9f1e-3c4b5a6d7e8f"
	const id = "0196f0c2-7a54-7b41-8c2d-1e2f3a4b5c6d"
	msg := func(n int, role a2a.Role, parts ...*a2a.Part) *a2a.Message {
		return &a2a.Message{
			MessageID: fmt.Sprintf("0196f0c2-7a55-7%03d-a1b2-c3d4e5f6a7b8", n),
			ContextID: ctx, TaskID: id, Role: role, Parts: parts,
			Metadata: json.RawMessage(fmt.Sprintf(`{"turn":%d,"client":"web"}`, n)),
		}
	}
	text := func(s string) *a2a.Part { return &a2a.Part{Content: &a2a.PartText{Text: s}} }
	data := func(s string) *a2a.Part {
		return &a2a.Part{Content: &a2a.PartData{Data: json.RawMessage(s)}, MediaType: "application/json"}
	}
	return &a2a.Task{
		ID: id, ContextID: ctx,
		Status: &a2a.TaskStatus{
			State:     a2a.TaskStateCompleted,
			Timestamp: &ts,
			Message:   msg(7, a2a.RoleAgent, text("The report is ready: two artifacts, a summary and the figures behind it.")),
		},
		History: []*a2a.Message{
			msg(1, a2a.RoleUser,
				text("Compare the revenue of our three regions over the last four quarters and tell me which one is slowing down. Use the attached export."),
				data(`{"export":{"rows":1240,"columns":["region","quarter","revenue","currency"],"source":"warehouse.sales_q"},"filters":{"year":[2025,2026],"exclude":["internal"]}}`)),
			msg(2, a2a.RoleAgent,
				text("I will aggregate the export by region and quarter, convert to EUR at the quarter's average rate, and look at quarter-on-quarter growth."),
				data(`{"plan":[{"step":1,"action":"aggregate","by":["region","quarter"]},{"step":2,"action":"convert","to":"EUR"},{"step":3,"action":"growth","kind":"qoq"}]}`)),
			msg(3, a2a.RoleAgent,
				text("Aggregation done. APAC shows a drop in Q3 that is partly a currency effect; do you want figures in local currency as well?"),
				data(`{"partial":{"EMEA":[4.1,4.3,4.4,4.6],"APAC":[3.2,3.5,3.1,3.3],"AMER":[5.0,5.1,5.1,5.2]},"unit":"MEUR"}`)),
			msg(4, a2a.RoleUser, text("Yes, add local currency, and flag anything below 2% growth.")),
			msg(5, a2a.RoleAgent,
				text("Added local-currency columns. Growth below 2% is flagged. AMER is the region slowing down: +2.0%, +0.0%, +2.0% over the last three quarters."),
				data(`{"flags":[{"region":"AMER","quarter":"2026-Q2","growth":0.0},{"region":"APAC","quarter":"2026-Q1","growth":-11.4,"note":"FX"}],"threshold":0.02}`)),
			msg(6, a2a.RoleUser, text("Great, write it up with a chart and the table.")),
		},
		Artifacts: []*a2a.Artifact{{
			ArtifactID:  "0196f0c2-7a60-7c11-9d22-e3f4a5b6c7d8",
			Name:        "summary.md",
			Description: "Regional revenue summary",
			Parts: []*a2a.Part{
				text("# Regional revenue, last four quarters\n\nEMEA grew steadily (+12% over the year). APAC dipped in Q3, mostly because of the exchange rate; in local currency it grew 3%. AMER is slowing down: growth fell to 0% in 2026-Q2.\n"),
				text("## Recommendation\n\nReview the AMER pipeline for 2026-Q3 and hedge APAC currency exposure.\n"),
				{Content: &a2a.PartURL{URL: "https://files.example.com/reports/0196f0c2/revenue.png"}, Filename: "revenue.png", MediaType: "image/png"},
			},
			Metadata:   json.RawMessage(`{"words":96,"language":"en"}`),
			Extensions: []string{"https://example.com/ext/citations/v1"},
		}, {
			ArtifactID: "0196f0c2-7a61-7e33-8f44-a5b6c7d8e9f0",
			Name:       "figures.json",
			Parts: []*a2a.Part{
				data(`{"columns":["region","quarter","revenue_eur","revenue_local","growth_qoq"],"rows":[["EMEA","2025-Q3",4.1,4.1,null],["EMEA","2025-Q4",4.3,4.3,0.049],["EMEA","2026-Q1",4.4,4.4,0.023],["EMEA","2026-Q2",4.6,4.6,0.045],["APAC","2025-Q3",3.2,520.4,null],["APAC","2025-Q4",3.5,561.0,0.094],["APAC","2026-Q1",3.1,566.2,-0.114],["APAC","2026-Q2",3.3,578.9,0.065],["AMER","2025-Q3",5.0,5.4,null],["AMER","2025-Q4",5.1,5.5,0.02],["AMER","2026-Q1",5.1,5.5,0.0],["AMER","2026-Q2",5.2,5.6,0.02]]}`),
				data(`{"fx":{"USD":1.08,"JPY":162.3},"asOf":"2026-06-30"}`),
				text("Figures in millions; growth is quarter on quarter."),
			},
		}},
		Metadata: json.RawMessage(`{"model":"example-large","costUsd":0.0187,"tokens":{"input":5120,"output":1408},"tags":["finance","quarterly"]}`),
	}
}

// benchInputs holds the same Task in every representation.
type benchInputs struct {
	agui   *a2a.Task
	json   []byte // agui's ProtoJSON; every impl decodes it
	binary []byte
	dyn    *dynamicpb.Message
	a2ago  *a2ago.Task
	a2apb  *a2apb.Task
}

func benchSetup(b *testing.B) benchInputs {
	b.Helper()
	in := benchInputs{agui: benchTask()}
	if err := in.agui.Validate(); err != nil {
		b.Fatal(err)
	}
	in.json = in.agui.AppendJSON(nil)
	in.binary = in.agui.AppendProto(nil)

	in.dyn = dynamicpb.NewMessage(descriptor(b).Messages().ByName("Task"))
	if err := protojson.Unmarshal(in.json, in.dyn); err != nil {
		b.Fatal(err)
	}
	fromBinary := dynamicpb.NewMessage(in.dyn.Descriptor())
	if err := proto.Unmarshal(in.binary, fromBinary); err != nil {
		b.Fatal(err)
	}
	if !proto.Equal(in.dyn, fromBinary) {
		b.Fatal("agui's JSON and binary encodings decode to different dynamicpb messages")
	}

	in.a2ago = new(a2ago.Task)
	if err := json.Unmarshal(in.json, in.a2ago); err != nil {
		b.Fatal(err)
	}
	if len(in.a2ago.History) != len(in.agui.History) || len(in.a2ago.Artifacts) != len(in.agui.Artifacts) {
		b.Fatal("a2a-go read a different task")
	}

	in.a2apb = new(a2apb.Task)
	if err := protojson.Unmarshal(in.json, in.a2apb); err != nil {
		b.Fatal(err)
	}
	return in
}

func BenchmarkEncodeJSON(b *testing.B) {
	in := benchSetup(b)
	b.Run("impl=agui", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(in.json)))
		buf := make([]byte, 0, 2*len(in.json))
		for b.Loop() {
			buf = in.agui.AppendJSON(buf[:0])
		}
	})
	b.Run("impl=protojson", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(in.json)))
		for b.Loop() {
			if _, err := protojson.Marshal(in.dyn); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("impl=a2ago", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(in.json)))
		for b.Loop() {
			if _, err := json.Marshal(in.a2ago); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("impl=protojson-a2apb", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(in.json)))
		for b.Loop() {
			if _, err := protojson.Marshal(in.a2apb); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkDecodeJSON(b *testing.B) {
	in := benchSetup(b)
	b.Run("impl=agui", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(in.json)))
		for b.Loop() {
			var t a2a.Task
			if err := t.UnmarshalJSON(in.json); err != nil {
				b.Fatal(err)
			}
			if err := t.Validate(); err != nil {
				b.Fatal(err)
			}
		}
	})
	md := in.dyn.Descriptor()
	b.Run("impl=protojson", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(in.json)))
		for b.Loop() {
			if err := protojson.Unmarshal(in.json, dynamicpb.NewMessage(md)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("impl=a2ago", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(in.json)))
		for b.Loop() {
			var t a2ago.Task
			if err := json.Unmarshal(in.json, &t); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("impl=protojson-a2apb", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(in.json)))
		for b.Loop() {
			if err := protojson.Unmarshal(in.json, new(a2apb.Task)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkEncodeBinary(b *testing.B) {
	in := benchSetup(b)
	b.Run("impl=agui", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(in.binary)))
		buf := make([]byte, 0, 2*len(in.binary))
		for b.Loop() {
			buf = in.agui.AppendProto(buf[:0])
		}
	})
	b.Run("impl=proto", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(in.binary)))
		for b.Loop() {
			if _, err := proto.Marshal(in.dyn); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("impl=proto-a2apb", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(in.binary)))
		for b.Loop() {
			if _, err := proto.Marshal(in.a2apb); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkDecodeBinary(b *testing.B) {
	in := benchSetup(b)
	b.Run("impl=agui", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(in.binary)))
		for b.Loop() {
			var t a2a.Task
			if err := t.UnmarshalProto(in.binary); err != nil {
				b.Fatal(err)
			}
		}
	})
	md := in.dyn.Descriptor()
	b.Run("impl=proto", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(in.binary)))
		for b.Loop() {
			if err := proto.Unmarshal(in.binary, dynamicpb.NewMessage(md)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("impl=proto-a2apb", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(in.binary)))
		for b.Loop() {
			if err := proto.Unmarshal(in.binary, new(a2apb.Task)); err != nil {
				b.Fatal(err)
			}
		}
	})
}
