// Package ir is the language-neutral model every loader lowers a spec into and
// every emitter reads. It names things the way the spec does (wire names,
// definition names); Go names are chosen later, by the naming package.
package ir

import (
	"fmt"
	"strconv"
	"strings"
)

// Package is one loaded protocol: everything one generated Go package holds.
type Package struct {
	// Name is the short protocol name ("agui", "a2a"); emitters use it as the
	// default Go package name.
	Name string
	// Title and Doc come from the spec's own title and description.
	Title, Doc string
	// Sources lists the spec files the package was loaded from, in load order.
	Sources []Source
	// Decls holds every declaration in document order.
	Decls []Decl
	// Proto describes the package's protobuf identity, for packages loaded
	// from a .proto file; nil otherwise.
	Proto *ProtoPackage
}

// ProtoPackage is what a .proto file says about itself.
type ProtoPackage struct {
	Package   string // "lf.a2a.v1"
	GoPackage string // the go_package option, informational
}

// Source identifies one input file.
type Source struct {
	File    string `json:"file"`              // base name of the file, as shown in messages
	ID      string `json:"id"`                // the document's own identifier ($id, proto package)
	Version string `json:"version,omitempty"` // protocol version the document declares, if any
	SHA256  string `json:"sha256"`            // hex digest of the exact bytes loaded
}

// Pos says where in a spec an element was declared.
type Pos struct {
	File    string // base name of the spec file
	Pointer string // JSON pointer into the document ("#/$defs/Tool/properties/name"); empty for protos
	Line    int    // 1-based; 0 when unknown
	Col     int    // 1-based; 0 when unknown
}

func (p Pos) String() string {
	s := p.File
	if p.Line > 0 {
		s += fmt.Sprintf(":%d", p.Line)
		if p.Col > 0 {
			s += fmt.Sprintf(":%d", p.Col)
		}
	}
	if p.Pointer != "" {
		s += " (" + p.Pointer + ")"
	}
	return s
}

// Decl is a named declaration: *Struct, *Enum, *Union, *Alias or *Service.
type Decl interface {
	DeclName() string
	DeclPos() Pos
}

// Common holds what every declaration carries.
type Common struct {
	Name       string // the spec's name for it ("TextMessageStartEvent")
	Doc        string // the spec's description, verbatim
	Deprecated bool
	Pos        Pos
}

func (c *Common) DeclName() string { return c.Name }
func (c *Common) DeclPos() Pos     { return c.Pos }

// Struct is an object with a fixed set of named fields.
type Struct struct {
	Common
	// Mixins are the structs this one composes (JSON Schema allOf), in order.
	// Their fields are not repeated in Fields.
	Mixins []*Struct
	// Fields are this struct's own fields in declaration order, excluding
	// those it inherits unchanged from a mixin.
	Fields []*Field
	// Closed reports that members not declared are not allowed
	// (unevaluatedProperties: false).
	Closed bool
	// IsMixin reports that the struct is only ever composed into others and
	// never appears as a value on its own.
	IsMixin bool
	// FullName is the protobuf full name ("lf.a2a.v1.Task"), when loaded from
	// a proto.
	FullName string
	// Oneofs are the struct's oneof groups, in declaration order. Their
	// member fields are also in Fields, with Oneof set.
	Oneofs []*Oneof
}

// Oneof is a group of fields of which at most one is set.
type Oneof struct {
	Name   string // "payload"
	Doc    string
	Fields []*Field
	Pos    Pos
}

// Field is one member of a struct.
type Field struct {
	Name     string // wire name ("messageId")
	Doc      string
	Type     Type
	Required bool
	// Const, when set, is the only value the field may hold. A const field is
	// not stored: a required one is always written, an optional one is
	// written when its presence flag is set.
	Const *Literal
	// Default is the schema's documented default, as JSON text.
	Default string
	// Overrides names the mixin field this field narrows, if any: it keeps
	// that field's position on the wire.
	Overrides   *Field
	Deprecated  bool
	Constraints Constraints
	// Discriminator reports that this field is the tag of a union the struct
	// is a member of; its value is the member's const.
	Discriminator bool
	// TagOf names the sibling field whose union this field selects a member
	// of (a META event's metaType selects its payload's type).
	TagOf string
	// Narrowed reports, on a mixin field, that every struct composing the
	// mixin narrows this field to a const, so the mixin's own value type
	// need not hold it.
	Narrowed bool
	// Number is the protobuf field number, 0 when the spec has none.
	Number int
	// JSONName is the field's JSON member name when it differs from Name
	// (a proto field "context_id" is "contextId" in JSON).
	JSONName string
	// Presence reports explicit presence (proto3 optional): an unset field
	// and a zero one differ.
	Presence bool
	// Oneof names the oneof group the field belongs to, if any.
	Oneof *Oneof
	Pos   Pos
}

// WireName is the field's JSON member name.
func (f *Field) WireName() string {
	if f.JSONName != "" {
		return f.JSONName
	}
	return f.Name
}

// Kind classifies a type reference.
type Kind int

const (
	KindString Kind = iota + 1
	KindInt         // a JSON integer (int64 in Go)
	KindFloat       // a JSON number
	KindBool
	KindAny   // any JSON value, carried as raw JSON text
	KindArray // Elem holds the element type
	KindMap   // string keys, Elem holds the value type
	KindNamed // Decl holds the declaration
	// KindStringOrArray is a value that is either a string or an array of
	// Elem (JSON Schema oneOf [string, array]).
	KindStringOrArray
	KindBytes     // binary data, base64 in JSON
	KindTimestamp // an instant (google.protobuf.Timestamp)
)

// Type is a reference to a type at a use site.
type Type struct {
	Kind Kind
	Elem *Type // for KindArray, KindMap, KindStringOrArray
	Decl Decl  // for KindNamed
	// JSONType restricts a KindAny value to one JSON type ("object"), when
	// the schema says so.
	JSONType string
	// NotNull reports that JSON null is not allowed (not: {type: null}).
	NotNull bool
	// Name is a spec-level name for an anonymous type that needs one
	// (an inline string-or-array union); empty otherwise.
	Name string
	// Scalar is the protobuf scalar type ("int32", "sint64", "fixed32",
	// "double", …) for packages loaded from a proto; it decides the binary
	// encoding. For KindAny it is "google.protobuf.Struct" or
	// "google.protobuf.Value".
	Scalar string
	// Key is the key type of a KindMap.
	Key *Type
}

// Named returns a reference to d.
func Named(d Decl) Type { return Type{Kind: KindNamed, Decl: d} }

// Constraints are the value checks a validator applies at a use site.
type Constraints struct {
	Minimum, Maximum *float64
	MinItems         *int64
	MaxItems         *int64
	MinLength        *int64
	MaxLength        *int64
	Pattern          string
	// Encoding is the content encoding of a string ("base64").
	Encoding string
}

// IsZero reports whether no constraint is set.
func (c Constraints) IsZero() bool { return c == Constraints{} }

// Literal is a constant scalar value.
type Literal struct {
	String string
	Int    int64
	Bool   bool
	Kind   Kind // KindString, KindInt or KindBool
}

// Enum is a closed set of named values.
type Enum struct {
	Common
	Values []*EnumValue
	// Extended names the files that appended values to this enum.
	Extended []string
}

// EnumValue is one member of an enum.
type EnumValue struct {
	Value      string // the wire value
	Doc        string
	Number     int // protobuf number, when known
	Deprecated bool
	Pos        Pos
}

// Union is a value that is exactly one of several struct types, told apart by
// a tag.
type Union struct {
	Common
	// Tag is the wire name of the discriminating field.
	Tag string
	// TagType is the enum that names the tag's values, when the spec has one.
	TagType *Enum
	// External reports that the tag lives beside the union's value, in the
	// enclosing struct, rather than inside each member.
	External bool
	// Open reports that unknown tag values are kept as free-form values
	// rather than rejected.
	Open    bool
	Members []*UnionMember
}

// UnionMember is one alternative of a union.
type UnionMember struct {
	Value  string // the tag value that selects it
	Struct *Struct
	Pos    Pos
}

// Alias is a named type that is another type with constraints
// ("SubagentRunId" is a string; "JsonPatch" is an array of operations).
type Alias struct {
	Common
	Type        Type
	Constraints Constraints
}

// Lookup returns the declaration named name, or nil.
func (p *Package) Lookup(name string) Decl {
	for _, d := range p.Decls {
		if d.DeclName() == name {
			return d
		}
	}
	return nil
}

// Services returns the package's services, in declaration order.
func (p *Package) Services() []*Service {
	var out []*Service
	for _, d := range p.Decls {
		if s, ok := d.(*Service); ok {
			out = append(out, s)
		}
	}
	return out
}

// AllFields returns s's fields including those of its mixins, in wire order:
// mixin fields first, in allOf order, then s's own; a field that narrows a
// mixin field takes that field's place.
func (s *Struct) AllFields() []*Field {
	var out []*Field
	for _, m := range s.Mixins {
		out = append(out, m.AllFields()...)
	}
	for _, f := range s.Fields {
		if f.Overrides != nil {
			replaced := false
			for i, g := range out {
				if g == f.Overrides {
					out[i] = f
					replaced = true
					break
				}
			}
			if replaced {
				continue
			}
		}
		out = append(out, f)
	}
	return out
}

// Service is an RPC service.
type Service struct {
	Common
	FullName string
	Methods  []*Method
}

// Method is one RPC of a service.
type Method struct {
	Name            string
	Doc             string
	Input, Output   *Struct
	ClientStreaming bool
	ServerStreaming bool
	Deprecated      bool
	// HTTP lists the google.api.http bindings: the main rule first, then its
	// additional_bindings.
	HTTP []HTTPRule
	Pos  Pos
}

// HTTPRule is one HTTP binding of a method.
type HTTPRule struct {
	Method       string // GET, POST, PUT, PATCH, DELETE, or a custom verb
	Path         string // "/tasks/{id=*}:cancel"
	Body         string // "*", a field name, or empty
	ResponseBody string
}

// CompareVersions orders Major.Minor protocol versions numerically: less
// than zero when a is the earlier.
func CompareVersions(a, b string) int {
	am, an, _ := strings.Cut(a, ".")
	bm, bn, _ := strings.Cut(b, ".")
	for _, p := range [][2]string{{am, bm}, {an, bn}} {
		x, _ := strconv.Atoi(p[0])
		y, _ := strconv.Atoi(p[1])
		if x != y {
			return x - y
		}
	}
	return 0
}
