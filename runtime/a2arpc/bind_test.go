package a2arpc_test

import (
	"context"
	"errors"
	"testing"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/runtime/a2arpc"
)

// TestUnaryMethod: the request reaches the server's method typed; a typed
// nil response is answered as no response (the binding then sends the empty
// message), never as a ProtoValue that holds a nil pointer; errors pass.
func TestUnaryMethod(t *testing.T) {
	desc := &a2a.A2AService.Methods[2] // GetTask
	var got *a2a.GetTaskRequest
	task := &a2a.Task{ID: "t1"}
	h := a2arpc.UnaryMethod(desc, func(_ context.Context, req *a2a.GetTaskRequest) (*a2a.Task, error) {
		got = req
		if req.ID == "none" {
			return nil, a2a.ErrTaskNotFound
		}
		return task, nil
	})
	if h.Desc != desc || h.Stream != nil {
		t.Fatalf("handler %+v: want Desc and Unary only", h)
	}
	req := &a2a.GetTaskRequest{ID: "t1"}
	resp, err := h.Unary(context.Background(), req)
	if err != nil || resp != a2a.ProtoValue(task) || got != req {
		t.Fatalf("got %v, %v (request %p, want %p)", resp, err, got, req)
	}
	resp, err = h.Unary(context.Background(), &a2a.GetTaskRequest{ID: "none"})
	if resp != nil || !errors.Is(err, a2a.ErrTaskNotFound) {
		t.Fatalf("typed nil: got %#v, %v; want a nil ProtoValue and the error", resp, err)
	}
}

// TestStreamMethod: each message the server's method sends typed reaches
// send, and send's error reaches the method.
func TestStreamMethod(t *testing.T) {
	desc := &a2a.A2AService.Methods[5] // SubscribeToTask
	gone := errors.New("caller gone")
	h := a2arpc.StreamMethod(desc, func(_ context.Context, req *a2a.SubscribeToTaskRequest, send func(*a2a.StreamResponse) error) error {
		for range 3 {
			if err := send(&a2a.StreamResponse{Payload: &a2a.StreamResponseTask{Task: &a2a.Task{ID: req.ID}}}); err != nil {
				return err
			}
		}
		return nil
	})
	if h.Desc != desc || h.Unary != nil {
		t.Fatalf("handler %+v: want Desc and Stream only", h)
	}
	var sent []a2arpc.ProtoValue
	err := h.Stream(context.Background(), &a2a.SubscribeToTaskRequest{ID: "t1"}, func(m a2arpc.ProtoValue) error {
		sent = append(sent, m)
		if len(sent) == 2 {
			return gone
		}
		return nil
	})
	if !errors.Is(err, gone) || len(sent) != 2 {
		t.Fatalf("sent %d, err %v; want 2 and the send error", len(sent), err)
	}
	if p, ok := sent[0].(*a2a.StreamResponse); !ok || p.Payload.(*a2a.StreamResponseTask).Task.ID != "t1" {
		t.Fatalf("first message %#v", sent[0])
	}
}
