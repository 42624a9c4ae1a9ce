// Package aguihttp is the AG-UI HTTP transport that no spec type enters:
// the media types and Accept negotiation of the two event transports, the
// length-prefixed protobuf frames, the requests a client makes and the
// errors they end in, and the protocol-version arithmetic both ends use.
// The generated AG-UI package decodes and encodes the events themselves
// and exports these names under its own (agui.HTTPError, agui.MediaTypeSSE,
// …); it imports this package, never the other way round.
package aguihttp
