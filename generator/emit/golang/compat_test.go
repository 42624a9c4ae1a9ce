package golang_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agui-gen/agui-gen/generator/emit/golang"
	"github.com/agui-gen/agui-gen/generator/load/jsonschema"
	protoload "github.com/agui-gen/agui-gen/generator/load/proto"
)

// An earlier version whose result lists tags as strings, and a current one
// whose tags are messages.
const (
	earlierSchema = `{"definitions": {
  "Req": {"type": "object", "properties": {"jsonrpc": {"const": "2.0", "type": "string"}, "method": {"const": "x/get", "type": "string"},
    "id": {"type": ["string", "integer"]}, "params": {"$ref": "#/definitions/P"}}, "required": ["jsonrpc", "method", "id", "params"]},
  "Resp": {"type": "object", "properties": {"jsonrpc": {"const": "2.0", "type": "string"}, "id": {"type": ["string", "integer", "null"]},
    "result": {"$ref": "#/definitions/R"}}, "required": ["jsonrpc", "id", "result"]},
  "P": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]},
  "R": {"type": "object", "properties": {"id": {"type": "string"}, "tags": {"type": "array", "items": {"type": "string"}}}, "required": ["id"]}
}}`
	currentProto = `syntax = "proto3";
package x.v1;
service S { rpc Get(GetReq) returns (R); }
message GetReq { string id = 1; }
message R { string id = 1; repeated Tag tags = 2; }
message Tag { string name = 1; }
`
)

func compatPair(t *testing.T, rules map[string]string) ([]golang.CompatLoss, error) {
	t.Helper()
	old, err := jsonschema.Load("xv09", jsonschema.Document{File: "x.json", Data: []byte(earlierSchema), ID: "urn:x", Version: "0.9",
		Roots: []string{"Req", "Resp"}})
	if err != nil {
		t.Fatal(err)
	}
	cur, err := protoload.Load(context.Background(), "x", "x.proto", []byte(currentProto))
	if err != nil {
		t.Fatal(err)
	}
	cur.Sources[0].Version = "1.0"
	fsys := fstest.MapFS{"rules/v09/routes.txt": {Data: []byte("Req Get Resp\n")}}
	for name, src := range rules {
		fsys["rules/v09/"+name] = &fstest.MapFile{Data: []byte(src)}
	}
	return golang.CompatLosses(cur, golang.Compat{Old: old, OldImport: "example.com/xv09", Rules: fsys, Dir: "rules/v09"})
}

// Fields whose types do not pair stop the generation, naming the rule that
// would carry them; with the rule, they are listed as its to carry.
func TestCompatFieldsThatDoNotPair(t *testing.T) {
	_, err := compatPair(t, nil)
	if err == nil || !strings.Contains(err.Error(), "R.tags (array) and R.tags do not pair; write fixFromV09R") {
		t.Fatalf("got %v", err)
	}
	losses, err := compatPair(t, map[string]string{"fix.go": "package v09\n\nfunc fixFromV09R() {}\nfunc fixToV09R() {}\n"})
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(losses, func(l golang.CompatLoss) bool { return l.Converter == "FromV09R" })
	if i < 0 || losses[i].Fix != "fixFromV09R" || !slices.Equal(losses[i].Lost, []string{"tags"}) || !slices.Equal(losses[i].Unfilled, []string{"tags"}) {
		t.Fatalf("losses %+v", losses)
	}
}
