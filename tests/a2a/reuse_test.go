package a2a_test

import (
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/tests/internal/protoref"
)

// reuseDocuments are StreamResponse documents that take a reused value
// through every change of shape: each payload member after each other,
// parts and artifacts growing and shrinking, fields present then absent,
// randomized messages of every field, and the realistic ones.
func reuseDocuments(t *testing.T) [][]byte {
	var docs [][]byte
	for _, r := range streamResponses() {
		docs = append(docs, r.AppendJSON(nil))
	}
	docs = append(docs,
		[]byte(`{"artifactUpdate":{"taskId":"t1","artifact":{"artifactId":"a1","parts":[{"text":"one"},{"text":"two"},{"data":{"k":1}}]}}}`),
		[]byte(`{"artifactUpdate":{"taskId":"t1","artifact":{"artifactId":"a1","parts":[{"url":"https://example.com/x"}]}}}`),
		[]byte(`{"artifactUpdate":{"taskId":"t1","artifact":{"artifactId":"a1","parts":[]}}}`),
		[]byte(`{"artifactUpdate":{"task_id":"t2","artifact":{"artifactId":"a1"}}}`),
		[]byte(`{"statusUpdate":{"taskId":"t1","status":{"state":"TASK_STATE_INPUT_REQUIRED","message":{"messageId":"m","role":"ROLE_AGENT","parts":[{"text":"which?"}]}}}}`),
		[]byte(`{"statusUpdate":{"taskId":"t1"}}`),
		[]byte(`{}`),
	)
	md := descriptor(t).Messages().ByName("StreamResponse")
	f := protoref.Filler{R: rand.New(rand.NewPCG(5, 6))}
	for range rounds {
		text, err := protojson.Marshal(f.Message(md, 4))
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, text)
	}
	return docs
}

// TestUnmarshalJSONReusing: decoding a document into a value that held
// another gives what decoding it afresh gives, for every pair of
// documents in both orders, whatever the value held before.
func TestUnmarshalJSONReusing(t *testing.T) {
	docs := reuseDocuments(t)
	var reused a2a.StreamResponse
	for i, prev := range docs {
		for j, doc := range docs {
			if err := reused.UnmarshalJSONReusing(prev); err != nil {
				t.Fatalf("document %d: %v\n%s", i, err, prev)
			}
			if err := reused.UnmarshalJSONReusing(doc); err != nil {
				t.Fatalf("document %d after %d: %v\n%s", j, i, err, doc)
			}
			var fresh a2a.StreamResponse
			if err := fresh.UnmarshalJSON(doc); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(&fresh, &reused); diff != "" {
				t.Fatalf("document %d decoded over %d differs from its fresh decoding (-fresh +reused):\n%s\n%s\nover\n%s", j, i, diff, doc, prev)
			}
		}
	}
}

// TestUnmarshalJSONReusingFailsAlike: a document that does not decode gives
// the same error reused as fresh.
func TestUnmarshalJSONReusingFailsAlike(t *testing.T) {
	held := streamResponses()[0].AppendJSON(nil)
	for _, doc := range []string{
		`{"task":{"id":"t"},"message":{"messageId":"m"}}`,
		`{"artifactUpdate":{"artifact":{"parts":[{"text":1}]}}}`,
		`{"artifactUpdate":{"artifact":{"parts":[{"text":"a","data":{}}]}}}`,
		`{"task":{"status":{"state":"NOT_A_STATE"}}}`,
		`{"task":`,
		`null`,
		``,
	} {
		var fresh, reused a2a.StreamResponse
		want := fresh.UnmarshalJSON([]byte(doc))
		if err := reused.UnmarshalJSONReusing(held); err != nil {
			t.Fatal(err)
		}
		got := reused.UnmarshalJSONReusing([]byte(doc))
		if (want == nil) != (got == nil) || want != nil && want.Error() != got.Error() {
			t.Errorf("%s: fresh %v, reused %v", doc, want, got)
		}
	}
}

// TestUnmarshalJSONReusingTakesNoMemory: an artifact update like the one
// before costs no allocation; one whose text differs costs its string.
func TestUnmarshalJSONReusingTakesNoMemory(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts mean nothing under the race detector, which empties sync.Pool at random")
	}
	same := []byte(`{"artifactUpdate":{"taskId":"t1","contextId":"c1","append":true,"artifact":{"artifactId":"a1","parts":[{"text":"The quick brown fox "}]}}}`)
	other := []byte(`{"artifactUpdate":{"taskId":"t1","contextId":"c1","append":true,"artifact":{"artifactId":"a1","parts":[{"text":"jumps over the dog. "}]}}}`)
	var r a2a.StreamResponse
	if err := r.UnmarshalJSONReusing(same); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { _ = r.UnmarshalJSONReusing(same) }); n != 0 {
		t.Errorf("the same update again: %v allocations, want 0", n)
	}
	docs, i := [][]byte{same, other}, 0
	if n := testing.AllocsPerRun(100, func() { i++; _ = r.UnmarshalJSONReusing(docs[i%2]) }); n != 1 {
		t.Errorf("an update whose text differs: %v allocations, want 1 (the text)", n)
	}
}

// FuzzStreamResponseJSONReusing: whatever a value held, decoding a document
// into it gives what decoding the document afresh gives.
func FuzzStreamResponseJSONReusing(f *testing.F) {
	rs := streamResponses()
	for i := range rs {
		for j := range rs {
			f.Add(rs[i].AppendJSON(nil), rs[j].AppendJSON(nil))
		}
	}
	f.Fuzz(func(t *testing.T, prev, doc []byte) {
		var reused, fresh a2a.StreamResponse
		_ = reused.UnmarshalJSONReusing(prev)
		got := reused.UnmarshalJSONReusing(doc)
		want := fresh.UnmarshalJSON(doc)
		if (want == nil) != (got == nil) || want != nil && want.Error() != got.Error() {
			t.Fatalf("fresh %v, reused %v", want, got)
		}
		if want != nil {
			return
		}
		if diff := cmp.Diff(&fresh, &reused); diff != "" {
			t.Fatalf("decoded over another value, differs from its fresh decoding (-fresh +reused):\n%s", diff)
		}
	})
}
