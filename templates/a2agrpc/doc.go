// Package a2agrpc serves and calls the A2A service over gRPC (A2A §10)
// with google.golang.org/grpc, on the protobuf codecs of the generated
// package beside it: no protoc and no protoc-gen-go. It lives apart from
// that package so that code using A2A without gRPC does not import it.
//
// Importing it registers a gRPC "proto" codec that encodes the generated
// messages itself and hands every other message to the codec it replaces.
package a2agrpc

// This file and the others of templates/a2agrpc are written against the
// generated package gen/a2a; the generator copies them into the a2agrpc
// subpackage of its output with that import path rewritten.
