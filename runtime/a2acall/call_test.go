package a2acall

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"slices"
	"testing"

	"github.com/agui-gen/agui-gen/runtime/a2arpc"
	"github.com/agui-gen/agui-gen/runtime/wire"
)

// The bindings' tests (runtime/a2ahttp, gen/a2a/a2agrpc) run all of this
// through gen/a2a; these hold the package to its Spec with types of its own,
// as another generated package would bind it.

type card struct {
	streams  bool
	required []string
}

type msg struct {
	invalid error
}

func (m *msg) AppendJSON(b []byte) []byte     { return append(b, "{}"...) }
func (m *msg) UnmarshalJSON([]byte) error     { return nil }
func (m *msg) AppendProto(b []byte) []byte    { return b }
func (m *msg) UnmarshalProto([]byte) error    { return nil }
func (m *msg) Validate() error                { return m.invalid }
func newMsg() a2arpc.ProtoValue               { return &msg{} }
func noFacts(a2arpc.ProtoValue) Facts         { return Facts{} }
func noEvent(a2arpc.ProtoValue) (Facts, bool) { return Facts{}, false }
func agent(*card) (string, string, string)    { return "test", "", "" }
func streams(c *card) bool                    { return c.streams }
func missing(c *card, exts []string) string {
	for _, r := range c.required {
		if !slices.Contains(exts, r) {
			return r
		}
	}
	return ""
}

var spec = &Spec[*card]{Streams: streams, MissingExtension: missing, Agent: agent, Request: noFacts, Response: noFacts, Event: noEvent}

var logger = slog.New(slog.NewTextHandler(io.Discard, nil))

func unary(desc *a2arpc.MethodDesc, f func(context.Context, a2arpc.ProtoValue) (a2arpc.ProtoValue, error)) *a2arpc.MethodHandler {
	return &a2arpc.MethodHandler{Desc: desc, Unary: f}
}

// TestCardHeldToCalls: a call is refused what the card of its CallInfo
// does not allow, and served without a card or CallInfo.
func TestCardHeldToCalls(t *testing.T) {
	desc := &a2arpc.MethodDesc{Name: "Watch", ServerStreaming: true, NewRequest: newMsg, NewResponse: newMsg}
	h := &a2arpc.MethodHandler{Desc: desc, Stream: func(context.Context, a2arpc.ProtoValue, func(a2arpc.ProtoValue) error) error { return nil }}
	run := func(info *CallInfo[*card]) *a2arpc.RPCError {
		ctx := context.Background()
		if info != nil {
			info.Method = desc
			ctx = WithCallInfo(ctx, info)
		}
		return InvokeStream(ctx, spec, logger, h, &msg{}, func(a2arpc.ProtoValue) error { return nil })
	}
	for _, tc := range []struct {
		name string
		info *CallInfo[*card]
		want *a2arpc.RPCError
	}{
		{"no CallInfo", nil, nil},
		{"no card", &CallInfo[*card]{}, nil},
		{"streaming card", &CallInfo[*card]{Card: &card{streams: true}}, nil},
		{"card without streaming", &CallInfo[*card]{Card: &card{}}, a2arpc.ErrUnsupportedOperation},
		{"required extension missing", &CallInfo[*card]{Card: &card{streams: true, required: []string{"urn:x"}}}, a2arpc.ErrExtensionSupportRequired},
		{"required extension named", &CallInfo[*card]{Card: &card{streams: true, required: []string{"urn:x"}}, Extensions: []string{"urn:x"}}, nil},
	} {
		got := run(tc.info)
		if (got == nil) != (tc.want == nil) || (got != nil && !errors.Is(got, tc.want)) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestInvokeUnary: the request is validated, a nil response is the empty
// response, a panic and an error outside the table are ErrInternal without
// their text, and an error of the table is the caller's.
func TestInvokeUnary(t *testing.T) {
	desc := &a2arpc.MethodDesc{Name: "Get", NewRequest: newMsg, NewResponse: newMsg}
	ctx := context.Background()
	resp, rerr := InvokeUnary(ctx, spec, logger, unary(desc, func(context.Context, a2arpc.ProtoValue) (a2arpc.ProtoValue, error) { return nil, nil }), &msg{})
	if rerr != nil || resp == nil {
		t.Fatalf("nil response: got %v, %v; want the empty response", resp, rerr)
	}
	invalid := &msg{invalid: &wire.Error{Path: "/message/parts/0/text", Msg: "required"}}
	if _, rerr := InvokeUnary(ctx, spec, logger, unary(desc, nil), invalid); !errors.Is(rerr, a2arpc.ErrInvalidParams) ||
		len(rerr.Violations) != 1 || rerr.Violations[0].Field != "message.parts[0].text" {
		t.Errorf("invalid request: got %v (%+v)", rerr, rerr)
	}
	if _, rerr := InvokeUnary(ctx, spec, logger, unary(desc, func(context.Context, a2arpc.ProtoValue) (a2arpc.ProtoValue, error) { panic("boom") }), &msg{}); !errors.Is(rerr, a2arpc.ErrInternal) || rerr.Message != "internal error" {
		t.Errorf("panic: got %v", rerr)
	}
	if _, rerr := InvokeUnary(ctx, spec, logger, unary(desc, func(context.Context, a2arpc.ProtoValue) (a2arpc.ProtoValue, error) {
		return nil, errors.New("db password is hunter2")
	}), &msg{}); !errors.Is(rerr, a2arpc.ErrInternal) || rerr.Message != "internal error" {
		t.Errorf("error outside the table: got %v", rerr)
	}
	if _, rerr := InvokeUnary(ctx, spec, logger, unary(desc, func(context.Context, a2arpc.ProtoValue) (a2arpc.ProtoValue, error) {
		return nil, a2arpc.NewError(a2arpc.ErrTaskNotFound, "no task t1")
	}), &msg{}); !errors.Is(rerr, a2arpc.ErrTaskNotFound) || rerr.Message != "no task t1" {
		t.Errorf("error of the table: got %v", rerr)
	}
}

// TestAuthError: an authenticator's *RPCError keeps its code; any other
// error is ErrUnauthenticated.
func TestAuthError(t *testing.T) {
	if e := AuthError(a2arpc.NewError(a2arpc.ErrPermissionDenied, "no")); !errors.Is(e, a2arpc.ErrPermissionDenied) {
		t.Errorf("got %v, want PermissionDenied", e)
	}
	if e := AuthError(errors.New("bad token")); !errors.Is(e, a2arpc.ErrUnauthenticated) {
		t.Errorf("got %v, want Unauthenticated", e)
	}
}
