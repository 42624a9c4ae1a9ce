package a2arpc

import (
	"context"
	"errors"
	"strings"
)

// ErrorDomain is the google.rpc.ErrorInfo domain of A2A errors.
const ErrorDomain = "a2a-protocol.org"

// RPCError is an error as every binding carries it: a JSON-RPC code, the
// google.rpc.ErrorInfo reason, and the gRPC and HTTP statuses that go with
// them. Handlers return one of the Err… values below, or wrap one with %w,
// and each binding writes it in its own shape; clients decode what they
// receive back into an *RPCError, so errors.Is works on both sides.
type RPCError struct {
	// Code is the JSON-RPC error code (-32001 for TASK_NOT_FOUND, -32602
	// for invalid params).
	Code int
	// Reason is the ErrorInfo reason ("TASK_NOT_FOUND").
	Reason string
	// Message says what went wrong, for a person.
	Message string
	// Metadata is the ErrorInfo metadata.
	Metadata map[string]string
	// Violations name the request fields that failed validation; they travel
	// as a google.rpc.BadRequest detail.
	Violations []FieldViolation
	// Err is the error behind this one, when there is one.
	Err error
}

// FieldViolation names one invalid request field.
type FieldViolation struct {
	// Field is the field's path ("message.parts"); Description says what is
	// wrong with it.
	Field, Description string
}

func (e *RPCError) Error() string {
	if e.Message != "" {
		return e.Message
	}
	return e.kind().text
}

func (e *RPCError) Unwrap() error { return e.Err }

// Is reports a match on the error code, so that a wrapped or decoded error
// is the sentinel of its code: errors.Is(err, ErrTaskNotFound).
func (e *RPCError) Is(target error) bool {
	t, ok := target.(*RPCError)
	return ok && t.Code == e.Code
}

// GRPCCode is the google.rpc.Code of the error.
func (e *RPCError) GRPCCode() int { return e.kind().grpc }

// HTTPStatus is the HTTP status of the error in the HTTP+JSON binding.
func (e *RPCError) HTTPStatus() int { return e.kind().http }

// Status is the google.rpc.Code name ("NOT_FOUND"), as the HTTP+JSON
// binding writes it.
func (e *RPCError) Status() string { return grpcCodeNames[e.kind().grpc] }

func (e *RPCError) kind() errorKind {
	for _, k := range errorKinds {
		if k.code == e.Code {
			return k
		}
	}
	return errorKind{code: e.Code, grpc: codeUnknown, http: 500, text: "error"}
}

// google.rpc.Code values.
const (
	codeCanceled           = 1
	codeUnknown            = 2
	codeInvalidArgument    = 3
	codeDeadlineExceeded   = 4
	codeNotFound           = 5
	codePermissionDenied   = 7
	codeFailedPrecondition = 9
	codeAborted            = 10
	codeUnimplemented      = 12
	codeInternal           = 13
	codeUnauthenticated    = 16
)

var grpcCodeNames = map[int]string{
	0: "OK", codeCanceled: "CANCELLED", codeUnknown: "UNKNOWN", codeInvalidArgument: "INVALID_ARGUMENT",
	codeDeadlineExceeded: "DEADLINE_EXCEEDED", codeNotFound: "NOT_FOUND", 6: "ALREADY_EXISTS",
	codePermissionDenied: "PERMISSION_DENIED", 8: "RESOURCE_EXHAUSTED", codeFailedPrecondition: "FAILED_PRECONDITION",
	codeAborted: "ABORTED", 11: "OUT_OF_RANGE", codeUnimplemented: "UNIMPLEMENTED", codeInternal: "INTERNAL",
	14: "UNAVAILABLE", 15: "DATA_LOSS", codeUnauthenticated: "UNAUTHENTICATED",
}

// errorKind is one row of the A2A error table (A2A §5.4 and §9.5 for the
// JSON-RPC codes, §10 for gRPC, §11 for HTTP).
type errorKind struct {
	code   int
	reason string
	grpc   int
	http   int
	text   string
}

var errorKinds = []errorKind{
	{-32700, "PARSE_ERROR", codeInvalidArgument, 400, "parse error"},
	{-32600, "INVALID_REQUEST", codeInvalidArgument, 400, "invalid request"},
	{-32601, "METHOD_NOT_FOUND", codeUnimplemented, 404, "method not found"},
	{-32602, "INVALID_PARAMS", codeInvalidArgument, 400, "invalid params"},
	{-32603, "INTERNAL_ERROR", codeInternal, 500, "internal error"},
	{-32001, "TASK_NOT_FOUND", codeNotFound, 404, "task not found"},
	{-32002, "TASK_NOT_CANCELABLE", codeFailedPrecondition, 400, "task cannot be canceled"},
	{-32003, "PUSH_NOTIFICATION_NOT_SUPPORTED", codeFailedPrecondition, 400, "push notifications are not supported"},
	{-32004, "UNSUPPORTED_OPERATION", codeFailedPrecondition, 400, "operation not supported"},
	{-32005, "CONTENT_TYPE_NOT_SUPPORTED", codeInvalidArgument, 400, "content type not supported"},
	{-32006, "INVALID_AGENT_RESPONSE", codeInternal, 500, "invalid agent response"},
	{-32007, "EXTENDED_AGENT_CARD_NOT_CONFIGURED", codeFailedPrecondition, 400, "extended agent card not configured"},
	{-32008, "EXTENSION_SUPPORT_REQUIRED", codeFailedPrecondition, 400, "extension support required"},
	{-32009, "VERSION_NOT_SUPPORTED", codeFailedPrecondition, 400, "protocol version not supported"},
	// The dev-1.1 draft's TaskGenerationMismatchError (§5.4 there), for
	// protos with SendMessageConfiguration.if_generation_match.
	{-32010, "TASK_GENERATION_MISMATCH", codeAborted, 409, "task generation mismatch"},
	// The spec leaves authentication to the transport; these are the codes
	// a2a-go uses, so its clients recognise them.
	{-31401, "UNAUTHENTICATED", codeUnauthenticated, 401, "unauthenticated"},
	{-31403, "PERMISSION_DENIED", codePermissionDenied, 403, "permission denied"},
}

// The errors of the A2A error table. Return one, or wrap one with %w, from
// a handler; test for one with errors.Is.
var (
	ErrParse                          = sentinel(-32700)
	ErrInvalidRequest                 = sentinel(-32600)
	ErrMethodNotFound                 = sentinel(-32601)
	ErrInvalidParams                  = sentinel(-32602)
	ErrInternal                       = sentinel(-32603)
	ErrTaskNotFound                   = sentinel(-32001)
	ErrTaskNotCancelable              = sentinel(-32002)
	ErrPushNotificationNotSupported   = sentinel(-32003)
	ErrUnsupportedOperation           = sentinel(-32004)
	ErrContentTypeNotSupported        = sentinel(-32005)
	ErrInvalidAgentResponse           = sentinel(-32006)
	ErrExtendedAgentCardNotConfigured = sentinel(-32007)
	ErrExtensionSupportRequired       = sentinel(-32008)
	ErrVersionNotSupported            = sentinel(-32009)
	ErrTaskGenerationMismatch         = sentinel(-32010)
	ErrUnauthenticated                = sentinel(-31401)
	ErrPermissionDenied               = sentinel(-31403)
)

func sentinel(code int) *RPCError {
	e := &RPCError{Code: code}
	k := e.kind()
	e.Reason, e.Message = k.reason, k.text
	return e
}

// NewError returns an error of the kind of sentinel (one of the Err…
// values) with its own message.
func NewError(sentinel *RPCError, message string) *RPCError {
	return &RPCError{Code: sentinel.Code, Reason: sentinel.Reason, Message: message, Err: sentinel}
}

// AsRPCError turns any error a handler returns into the *RPCError a binding
// writes: an *RPCError found in the chain keeps its code and takes the
// whole chain's text as its message; context cancellation and deadlines
// become internal errors that say so; anything else is an internal error.
func AsRPCError(err error) *RPCError {
	var e *RPCError
	if errors.As(err, &e) {
		if err == error(e) {
			return e
		}
		out := *e
		out.Message = err.Error()
		return &out
	}
	out := &RPCError{Code: -32603, Reason: "INTERNAL_ERROR", Message: err.Error(), Err: err}
	switch {
	case errors.Is(err, context.Canceled):
		out.Message = "canceled: " + err.Error()
	case errors.Is(err, context.DeadlineExceeded):
		out.Message = "deadline exceeded: " + err.Error()
	}
	return out
}

// ErrorFromCode rebuilds an error a peer sent: by its ErrorInfo reason
// when it has one the table knows, else by its code.
func ErrorFromCode(code int, reason, message string) *RPCError {
	e := &RPCError{Code: code, Reason: reason, Message: message}
	if reason != "" {
		for _, k := range errorKinds {
			if k.reason == reason {
				e.Code = k.code
				break
			}
		}
	}
	if e.Reason == "" {
		e.Reason = e.kind().reason
	}
	if e.Message == "" {
		e.Message = e.kind().text
	}
	return e
}

// ErrorFromStatus rebuilds an error from a google.rpc.Code and an ErrorInfo
// reason, for the bindings that carry no JSON-RPC code.
func ErrorFromStatus(grpcCode int, reason, message string) *RPCError {
	if reason != "" {
		for _, k := range errorKinds {
			if k.reason == reason {
				return &RPCError{Code: k.code, Reason: reason, Message: message}
			}
		}
	}
	code := -32603
	switch grpcCode {
	case codeInvalidArgument:
		code = -32602
	case codeNotFound:
		code = -32001
	case codeUnimplemented:
		code = -32601
	case codeUnauthenticated:
		code = -31401
	case codePermissionDenied:
		code = -31403
	}
	e := &RPCError{Code: code, Reason: reason, Message: message}
	if e.Reason == "" {
		e.Reason = e.kind().reason
	}
	return e
}

// GRPCCodeOf looks a google.rpc.Code up by its name ("NOT_FOUND"), or
// returns codeUnknown.
func GRPCCodeOf(name string) int {
	for c, n := range grpcCodeNames {
		if strings.EqualFold(n, name) {
			return c
		}
	}
	return codeUnknown
}
