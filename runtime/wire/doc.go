// Package wire is the JSON and protobuf wire the generated packages encode
// and decode with, without reflection: a single-pass JSON Reader that
// tracks the JSON pointer of what it reads, so every error names where it
// happened (Error); the appenders that write JSON into a caller's buffer;
// the ProtoJSON forms of protobuf's scalars, Timestamp, bytes, enums,
// Struct and Value; the protobuf binary primitives (varints, tags,
// length-delimited fields) and their ProtoReader; and the helpers of the
// generated validators.
//
// Generated types implement Value: AppendJSON, Validate, and ReadJSON,
// which a Decoder calls. The generated packages name Error, Decoder,
// Value, Member, ErrSyntax, ErrNoTag and MaxDepth as their own
// (agui.Error is wire.Error), so user code rarely imports this package.
package wire
