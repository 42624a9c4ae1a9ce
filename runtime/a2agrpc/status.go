package a2agrpc

import (
	"context"
	"errors"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/protoadapt"

	"github.com/agui-gen/agui-gen/runtime/a2arpc"
)

// toStatus writes an A2A error as a gRPC status: its code from the A2A
// table, an ErrorInfo detail, and a BadRequest when it names fields.
func toStatus(e *a2arpc.RPCError) error { return toStatusCode(e, codes.Code(e.GRPCCode())) }

// status is e as the binding's clients read it: by this version's table,
// or where an earlier version's clients read an error by another code,
// by theirs.
func (b *binding[C, I]) status(e *a2arpc.RPCError) error {
	if b.earlier != nil {
		if c, ok := earlierCodes[b.earlier.Version][e.Code]; ok {
			return toStatusCode(e, c)
		}
	}
	return toStatus(e)
}

// earlierCodes are the gRPC codes by which an earlier version's clients
// read an error, where this version's table gives another: A2A 0.3 answered
// what an agent does not support with UNIMPLEMENTED, and an extended card
// it has not with NOT_FOUND (a2a-go v0.3.15 reads FAILED_PRECONDITION as
// "task not cancelable").
var earlierCodes = map[string]map[int]codes.Code{
	"0.3": {
		a2arpc.ErrPushNotificationNotSupported.Code:   codes.Unimplemented,
		a2arpc.ErrUnsupportedOperation.Code:           codes.Unimplemented,
		a2arpc.ErrExtendedAgentCardNotConfigured.Code: codes.NotFound,
	},
}

func toStatusCode(e *a2arpc.RPCError, code codes.Code) error {
	st := status.New(code, e.Error())
	details := []protoadapt.MessageV1{&errdetails.ErrorInfo{Reason: e.Reason, Domain: a2arpc.ErrorDomain, Metadata: e.Metadata}}
	if len(e.Violations) > 0 {
		br := &errdetails.BadRequest{}
		for _, v := range e.Violations {
			br.FieldViolations = append(br.FieldViolations, &errdetails.BadRequest_FieldViolation{Field: v.Field, Description: v.Description})
		}
		details = append(details, br)
	}
	if withDetails, err := st.WithDetails(details...); err == nil {
		st = withDetails
	}
	return st.Err()
}

// fromStatus reads a gRPC error from a server of version back into an
// *RPCError: by its ErrorInfo reason when it has one, else by its code.
func fromStatus(err error, version string) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	st, ok := status.FromError(err)
	if !ok {
		return err
	}
	var reason string
	var meta map[string]string
	var violations []a2arpc.FieldViolation
	for _, d := range st.Details() {
		switch d := d.(type) {
		case *errdetails.ErrorInfo:
			if d.Domain == a2arpc.ErrorDomain || d.Domain == "" {
				reason, meta = d.Reason, d.Metadata
			}
		case *errdetails.BadRequest:
			for _, v := range d.FieldViolations {
				violations = append(violations, a2arpc.FieldViolation{Field: v.Field, Description: v.Description})
			}
		}
	}
	e := a2arpc.ErrorFromStatus(int(st.Code()), reason, st.Message())
	if sentinel, ok := earlierReadings[version][st.Code()]; ok && reason == "" {
		e = a2arpc.NewError(sentinel, st.Message())
	}
	e.Metadata, e.Violations = meta, violations
	return e
}

// earlierReadings are what an earlier version's servers mean by a code when
// they send no ErrorInfo (0.3's send none), where this version's table reads
// it otherwise: 0.3's table (a2a-go v0.3.15's grpcutil) has one error a code.
var earlierReadings = map[string]map[codes.Code]*a2arpc.RPCError{
	"0.3": {
		codes.FailedPrecondition: a2arpc.ErrTaskNotCancelable,
		codes.Unimplemented:      a2arpc.ErrUnsupportedOperation,
	},
}
