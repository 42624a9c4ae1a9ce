package a2arpc

import (
	"encoding/base64"
	"math"
	"strconv"
	"strings"
	"time"
)

// CompatVersion serves the clients of an earlier protocol version with this
// version's service: each of its JSON-RPC methods is converted to the method
// of this version that serves it, and the answer back. The generator builds
// one from the earlier version's spec, this one's, and the rules where their
// meaning differs.
type CompatVersion struct {
	// Version is the earlier version, Major.Minor ("0.3").
	Version string
	// Methods are its JSON-RPC methods.
	Methods []CompatMethod
	// Card writes this version's agent card in the earlier version's JSON,
	// for the members a client of that version reads; ReadCard reads a card
	// of the earlier version as this version's.
	Card     func(card ProtoValue) []byte
	ReadCard func(data []byte) (ProtoValue, error)
	// Proto, when the earlier version's proto was given too, describes its
	// service as its gRPC and HTTP+JSON clients call it, and RPCs say how
	// each of its RPCs (in the order of Proto.Methods) is served.
	Proto *ServiceDesc
	RPCs  []CompatRPC
}

// CompatRPC is how one RPC of an earlier version's proto is served: by this
// version's RPC named Serves, its request converted up (an error is a
// *CompatError) and each response down. A client of a server of the
// earlier version goes the other way: Request converts this version's
// request down, Response the earlier version's responses up.
type CompatRPC struct {
	Serves   string
	Up       func(req ProtoValue) (ProtoValue, error)
	Down     func(resp ProtoValue) ProtoValue
	Request  func(req ProtoValue) ProtoValue
	Response func(resp ProtoValue) (ProtoValue, error)
}

// CompatMethod is one JSON-RPC method of an earlier version.
type CompatMethod struct {
	// Method is its JSON-RPC name ("message/send").
	Method string
	// Serves names the method of this version that serves it.
	Serves string
	// Request reads the JSON-RPC params into the request of Serves. An error
	// is a *CompatError, or a decoding error of the earlier version's types.
	Request func(params []byte) (ProtoValue, error)
	// Result appends the JSON-RPC result for a response of Serves, or for one
	// message of its stream.
	Result func(b []byte, resp ProtoValue) []byte
	// Params and Response are the client's side: the JSON-RPC params of a
	// request of Serves, and the response of Serves a JSON-RPC result (or
	// one of its stream's) reads as.
	Params   func(req ProtoValue) []byte
	Response func(result []byte) (ProtoValue, error)
}

// ServedBy returns the method that the named method of this version serves,
// or nil.
func (v *CompatVersion) ServedBy(serves string) *CompatMethod {
	if v == nil {
		return nil
	}
	for i := range v.Methods {
		if v.Methods[i].Serves == serves {
			return &v.Methods[i]
		}
	}
	return nil
}

// Method returns the method named name, or nil.
func (v *CompatVersion) Method(name string) *CompatMethod {
	if v == nil {
		return nil
	}
	for i := range v.Methods {
		if v.Methods[i].Method == name {
			return &v.Methods[i]
		}
	}
	return nil
}

// CompatError is a value of an earlier version that this version cannot
// hold, located by its JSON pointer in the earlier version's request.
type CompatError struct {
	Path string // "/message/parts/1/file/bytes"
	Msg  string
}

func (e *CompatError) Error() string {
	if e.Path == "" {
		return e.Msg
	}
	return e.Path + ": " + e.Msg
}

// CompatAt prefixes the location of err, when it is a *CompatError, with a
// member name or an array index, as a conversion returns through the
// values that hold the bad one.
func CompatAt(err error, segment any) error {
	e, ok := err.(*CompatError)
	if !ok {
		return err
	}
	switch s := segment.(type) {
	case int:
		e.Path = "/" + strconv.Itoa(s) + e.Path
	case string:
		e.Path = "/" + strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1") + e.Path
	}
	return e
}

// ConvertSlice converts every element of in, locating a failure by its index.
func ConvertSlice[S, T any](in []S, conv func(S) (T, error)) ([]T, error) {
	if in == nil {
		return nil, nil
	}
	out := make([]T, len(in))
	for i, v := range in {
		c, err := conv(v)
		if err != nil {
			return nil, CompatAt(err, i)
		}
		out[i] = c
	}
	return out, nil
}

// MapSlice converts every element of in with a conversion that cannot fail.
func MapSlice[S, T any](in []S, conv func(S) T) []T {
	if in == nil {
		return nil
	}
	out := make([]T, len(in))
	for i, v := range in {
		out[i] = conv(v)
	}
	return out
}

// ConvertMap converts every value of in, locating a failure by its key.
func ConvertMap[S, T any](in map[string]S, conv func(S) (T, error)) (map[string]T, error) {
	if in == nil {
		return nil, nil
	}
	out := make(map[string]T, len(in))
	for k, v := range in {
		c, err := conv(v)
		if err != nil {
			return nil, CompatAt(err, k)
		}
		out[k] = c
	}
	return out, nil
}

// MapMap converts every value of in with a conversion that cannot fail.
func MapMap[S, T any](in map[string]S, conv func(S) T) map[string]T {
	if in == nil {
		return nil
	}
	out := make(map[string]T, len(in))
	for k, v := range in {
		out[k] = conv(v)
	}
	return out
}

// CompatInt32 narrows an earlier version's integer to an int32 field.
func CompatInt32(v int64) (int32, error) {
	if v < math.MinInt32 || v > math.MaxInt32 {
		return 0, &CompatError{Msg: strconv.FormatInt(v, 10) + " does not fit in 32 bits"}
	}
	return int32(v), nil
}

// CompatTime reads an earlier version's RFC 3339 timestamp.
func CompatTime(v string) (*time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return nil, &CompatError{Msg: strconv.Quote(v) + " is not an RFC 3339 timestamp"}
	}
	return &t, nil
}

// CompatBase64 reads an earlier version's base64 text as bytes.
func CompatBase64(v string) ([]byte, error) {
	b, err := base64.StdEncoding.DecodeString(v)
	if err != nil {
		return nil, &CompatError{Msg: "not base64: " + err.Error()}
	}
	return b, nil
}

// DerefOr is *p, or the zero value when p is nil.
func DerefOr[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}
