package a2arpc

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

func TestErrorTable(t *testing.T) {
	wrapped := fmt.Errorf("task 7: %w", ErrTaskNotFound)
	e := AsRPCError(wrapped)
	if e.Code != -32001 || e.Reason != "TASK_NOT_FOUND" || e.Message != "task 7: task not found" ||
		e.HTTPStatus() != 404 || e.GRPCCode() != codeNotFound || e.Status() != "NOT_FOUND" {
		t.Fatalf("%+v", e)
	}
	if !errors.Is(wrapped, ErrTaskNotFound) || errors.Is(wrapped, ErrTaskNotCancelable) {
		t.Fatal("errors.Is by code")
	}
	// A peer's error comes back by its reason, whatever code it used.
	if got := ErrorFromCode(-32603, "VERSION_NOT_SUPPORTED", ""); !errors.Is(got, ErrVersionNotSupported) || got.Message == "" {
		t.Fatalf("by reason: %+v", got)
	}
	if got := ErrorFromStatus(codeFailedPrecondition, "TASK_NOT_CANCELABLE", "no"); !errors.Is(got, ErrTaskNotCancelable) {
		t.Fatalf("gRPC by reason: %+v", got)
	}
	if got := ErrorFromStatus(codeInvalidArgument, "", "bad"); !errors.Is(got, ErrInvalidParams) {
		t.Fatalf("gRPC by code: %+v", got)
	}
	if got := AsRPCError(fmt.Errorf("db: %w", context.DeadlineExceeded)); got.Code != -32603 || got.Message != "deadline exceeded: db: context deadline exceeded" {
		t.Fatalf("deadline: %+v", got)
	}
	if GRPCCodeOf("permission_denied") != codePermissionDenied || GRPCCodeOf("NOPE") != codeUnknown {
		t.Fatal("GRPCCodeOf")
	}
	for _, k := range errorKinds {
		if grpcCodeNames[k.grpc] == "" || k.reason == "" || k.http < 400 {
			t.Errorf("row %+v", k)
		}
	}
}

func TestFieldTextIsNeverCoerced(t *testing.T) {
	if v, err := TextInt("n", "-2147483648", 32); err != nil || v != -2147483648 {
		t.Fatal(v, err)
	}
	for _, bad := range []string{"2147483648", "1.0", " 1", "0x10", ""} {
		if _, err := TextInt("n", bad, 32); !errors.Is(err, ErrInvalidParams) {
			t.Errorf("int32 %q: %v", bad, err)
		}
	}
	for _, bad := range []string{"1", "True", "yes", ""} {
		if _, err := TextBool("b", bad); err == nil {
			t.Errorf("bool %q accepted", bad)
		}
	}
	if _, err := TextTimestamp("t", "2026-01-02"); err == nil {
		t.Error("a date without a time accepted as a timestamp")
	}
	if b, err := TextBytes("b", "aGk"); err != nil || string(b) != "hi" {
		t.Errorf("unpadded base64: %q %v", b, err)
	}
	type enum int32
	parse := func(s []byte) (enum, bool) { return 3, string(s) == "THREE" }
	if v, err := TextEnum("e", "THREE", parse); err != nil || v != 3 {
		t.Error("enum by name", v, err)
	}
	if v, err := TextEnum("e", "5", parse); err != nil || v != 5 {
		t.Error("enum by number", v, err)
	}
	if _, err := TextEnum("e", "FOUR", parse); err == nil {
		t.Error("unknown enum name accepted")
	}
	if err := UnknownField("x"); !errors.Is(err, ErrUnknownField) {
		t.Error(err)
	}
}
