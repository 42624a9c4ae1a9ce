// Package a2agrpc serves and calls the A2A service over gRPC (A2A §10) with
// google.golang.org/grpc, on the protobuf codecs of the generated messages:
// no protoc and no protoc-gen-go. The server registers a bound
// a2arpc.Service and answers its calls as the HTTP bindings do (version
// negotiated, caller authenticated, call held to the agent card, A2A errors
// as gRPC statuses with ErrorInfo), beside the earlier versions' services;
// the client is an a2arpc.Transport. It lives apart from runtime/a2ahttp so
// that code using A2A without gRPC does not import grpc-go.
//
// The generated package's a2agrpc subpackage binds it to its spec types with
// a Spec (C is its *AgentCard, I its *AgentInterface, as in runtime/a2ahttp)
// and offers its names (RegisterA2AServiceServer, NewTransport, WithGRPC,
// the options) as thin wrappers and aliases; code is written against those.
//
// Importing it registers a gRPC "proto" codec that encodes the generated
// messages itself and hands every other message to the codec it replaces.
package a2agrpc
