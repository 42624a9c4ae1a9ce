// Package a2arpc is the RPC layer that every package generated from an A2A
// proto builds on, whatever the binding: the service and method
// descriptors the generated code declares (ServiceDesc, MethodDesc), a
// service bound to its implementation (Service) and the client side's
// Transport; the A2A error table (RPCError and the Err… values, with their
// JSON-RPC, gRPC and HTTP codes); the text form of fields that HTTP+JSON
// path variables and query parameters carry; and the conversions that
// serve an earlier protocol version's clients (CompatVersion).
//
// The generated a2a package names these as its own (a2a.ErrTaskNotFound is
// a2arpc.ErrTaskNotFound), so code written against it need not import this
// package.
package a2arpc
