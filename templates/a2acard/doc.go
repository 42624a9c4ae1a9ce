// Package a2acard signs and verifies agent cards (A2A §8.4): a JWS
// (RFC 7515, github.com/go-jose/go-jose/v4) with a detached payload, the
// JCS form (RFC 8785, github.com/gowebpki/jcs) of the card without its
// signatures. It lives apart from the package with the types so that code
// that does not sign cards does not import them.
//
// Before canonicalizing, members that hold nothing (empty strings, null,
// empty lists and objects) are dropped, as @a2a-js/sdk does, so that a card
// signed by one SDK verifies in the other whatever each omits by default.
package a2acard

// This file and the others of templates/a2acard are written against the
// generated package gen/a2a; the generator copies them into the a2acard
// subpackage of its output with that import path rewritten.
