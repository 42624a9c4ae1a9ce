// Package v03 holds the rules of the conversion between A2A 0.3 and 1.0
// where the two versions mean different things by their fields; the rest of
// the conversion is generated from the two specs. Its files are copied into
// gen/a2a beside the generated conversion (compat_v03_gen.go): a function
// here named like a generated converter replaces it, and fix<Converter>
// completes one.
package v03

import (
	"bytes"
	"encoding/base64"
	"encoding/json"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2av03"
)

// Parts: 0.3 has three kinds of part (text, file with bytes or a URI, data
// object) with the file's name and media type inside the file; 1.0 has one
// Part whose content is text, raw bytes, a URL or any JSON value, with
// filename and media type beside it. A 1.0 data value that is not an object
// cannot be a 0.3 data part, which is an object: it is carried as
// {"value": <the value>}.

// FromV03Part converts a 0.3 part to 1.0's.
func FromV03Part(x a2av03.Part) (*a2a.Part, error) {
	switch p := x.(type) {
	case *a2av03.TextPart:
		return &a2a.Part{Content: &a2a.PartText{Text: p.Text}, Metadata: p.Metadata}, nil
	case *a2av03.DataPart:
		return &a2a.Part{Content: &a2a.PartData{Data: p.Data}, Metadata: p.Metadata}, nil
	case *a2av03.FilePart:
		out := &a2a.Part{Metadata: p.Metadata}
		var name, mediaType *string
		switch f := p.File.(type) {
		case *a2av03.FileWithBytes:
			raw, err := base64.StdEncoding.DecodeString(f.Bytes)
			if err != nil {
				return nil, &a2a.CompatError{Path: "/file/bytes", Msg: "not base64: " + err.Error()}
			}
			out.Content, name, mediaType = &a2a.PartRaw{Raw: raw}, f.Name, f.MIMEType
		case *a2av03.FileWithURI:
			out.Content, name, mediaType = &a2a.PartURL{URL: f.URI}, f.Name, f.MIMEType
		}
		if name != nil {
			out.Filename = *name
		}
		if mediaType != nil {
			out.MediaType = *mediaType
		}
		return out, nil
	}
	return nil, &a2a.CompatError{Msg: "a part must be text, a file or data"}
}

// ToV03Part converts a 1.0 part to 0.3's; nil when it has no content.
func ToV03Part(x *a2a.Part) a2av03.Part {
	if x == nil {
		return nil
	}
	var name, mediaType *string
	if x.Filename != "" {
		name = &x.Filename
	}
	if x.MediaType != "" {
		mediaType = &x.MediaType
	}
	switch c := x.Content.(type) {
	case *a2a.PartText:
		return &a2av03.TextPart{Text: c.Text, Metadata: x.Metadata}
	case *a2a.PartRaw:
		return &a2av03.FilePart{Metadata: x.Metadata, File: &a2av03.FileWithBytes{
			Bytes: base64.StdEncoding.EncodeToString(c.Raw), Name: name, MIMEType: mediaType}}
	case *a2a.PartURL:
		return &a2av03.FilePart{Metadata: x.Metadata, File: &a2av03.FileWithURI{URI: c.URL, Name: name, MIMEType: mediaType}}
	case *a2a.PartData:
		return &a2av03.DataPart{Data: dataObject(c.Data), Metadata: x.Metadata}
	}
	return nil
}

// dataObject is a data part's value as 0.3 holds it, an object: one that is
// not is wrapped as {"value": …}.
func dataObject(data json.RawMessage) json.RawMessage {
	if trimmed := bytes.TrimLeft(data, " \t\r\n"); len(trimmed) == 0 || trimmed[0] != '{' {
		data, _ = json.Marshal(map[string]json.RawMessage{"value": data})
	}
	return data
}
