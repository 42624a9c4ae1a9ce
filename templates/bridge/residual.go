package bridge

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"sync"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	agui "github.com/agui-gen/agui-gen/gen/agui"
)

// HintResidual is the Part.metadata key under which a part carries what
// the AG-UI events it stands for hold beyond what the mapping gives A2A
// (a text message's name or metadata, a member a newer schema adds): a
// list of partial events, each with its "type". A2AAgent adds them back
// to the events it makes of the part.
const HintResidual = "agui_residual"

// notResidual are the members no event's residual holds: its type, which
// names it; its timestamp, which the other side stamps anew; and its
// subagent, whose events the executor sends as its parent's.
var notResidual = []string{"type", "timestamp", "subagentRunId"}

// residual returns the members of ev that its mapping to A2A does not
// carry (all but carried, and notResidual), as a JSON object with ev's
// type, or nil when there are none.
func residual(ev agui.Event, carried ...string) json.RawMessage {
	buf := residualBuffers.Get().(*[]byte)
	defer residualBuffers.Put(buf)
	data := ev.AppendJSON((*buf)[:0])
	*buf = data
	if !hasOtherMember(data, carried) {
		return nil // the common case, read without decoding
	}
	var members map[string]json.RawMessage
	if json.Unmarshal(data, &members) != nil {
		return nil
	}
	for _, k := range append(carried, notResidual...) {
		delete(members, k)
	}
	if len(members) == 0 {
		return nil
	}
	members["type"], _ = json.Marshal(ev.Type())
	out, _ := json.Marshal(members) // encoding/json sorts the keys
	return out
}

var residualBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// hasOtherMember reports whether the JSON object data has a member not in
// carried or notResidual. It reads the top-level member names only, and
// takes any escaped name for another member.
func hasOtherMember(data []byte, carried []string) bool {
	depth, inString, escaped := 0, false, false
	keyStart, expectKey := -1, false
	for i, c := range data {
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				if keyStart >= 0 {
					return true
				}
				escaped = true
			case c == '"':
				inString = false
				if keyStart >= 0 {
					if name := data[keyStart:i]; !listed(name, carried) && !listed(name, notResidual) {
						return true
					}
					keyStart = -1
				}
			}
			continue
		}
		switch c {
		case '"':
			inString = true
			if depth == 1 && expectKey {
				keyStart, expectKey = i+1, false
			}
		case '{', '[':
			depth++
			expectKey = depth == 1
		case '}', ']':
			depth--
		case ',':
			expectKey = depth == 1
		}
	}
	return false
}

func listed(name []byte, list []string) bool {
	for _, k := range list {
		if string(name) == k {
			return true
		}
	}
	return false
}

// setResiduals adds residuals (nil ones skipped) to p's metadata, after
// its hint.
func setResiduals(p *a2a.Part, residuals ...json.RawMessage) {
	if !slices.ContainsFunc(residuals, func(r json.RawMessage) bool { return r != nil }) {
		return // the common case, without a copy
	}
	residuals = slices.DeleteFunc(slices.Clone(residuals), func(r json.RawMessage) bool { return r == nil })
	meta := map[string]json.RawMessage{}
	_ = json.Unmarshal(p.Metadata, &meta)
	var list []json.RawMessage
	_ = json.Unmarshal(meta[HintResidual], &list)
	meta[HintResidual], _ = json.Marshal(append(list, residuals...))
	p.Metadata, _ = json.Marshal(meta)
}

// residuals are the partial events a part carries, by type; of two of one
// type, the later one's members win.
type residuals map[agui.EventType]map[string]json.RawMessage

// residualsOf reads the partial events p carries; nil when none.
func residualsOf(p *a2a.Part) residuals {
	if p == nil || !bytes.Contains(p.Metadata, []byte(`"`+HintResidual+`"`)) {
		return nil // the common case, without the decoder's allocations
	}
	var meta struct {
		List []map[string]json.RawMessage `json:"agui_residual"`
	}
	if json.Unmarshal(p.Metadata, &meta) != nil {
		return nil
	}
	out := residuals{}
	for _, members := range meta.List {
		var t agui.EventType
		if json.Unmarshal(members["type"], &t) != nil {
			continue
		}
		if out[t] == nil {
			out[t] = map[string]json.RawMessage{}
		}
		maps.Copy(out[t], members)
	}
	return out
}

// add returns ev with the members r holds for ev's type that ev does not
// set itself; ev itself when r has none. It also returns the members it
// left out: those this package's schema does not know (a newer schema's,
// on an older side) or that do not decode as ev's type's.
func (r residuals) add(ev agui.Event) (agui.Event, []string) {
	members := r[ev.Type()]
	if len(members) == 0 {
		return ev, nil
	}
	var own map[string]json.RawMessage
	if json.Unmarshal(ev.AppendJSON(nil), &own) != nil {
		return ev, slices.Sorted(maps.Keys(members))
	}
	var leftOut []string
	d := agui.Decoder{OnUnknown: func(path string) { leftOut = append(leftOut, path) }}
	out := ev
	for _, k := range slices.Sorted(maps.Keys(members)) {
		if _, set := own[k]; set || slices.Contains(notResidual, k) {
			continue
		}
		own[k] = members[k]
		data, err := json.Marshal(own)
		if err == nil {
			var next agui.Event
			if next, err = d.DecodeEvent(data); err == nil {
				out = next
				continue
			}
		}
		delete(own, k) // one member that does not decode costs only itself
		leftOut = append(leftOut, "/"+k)
	}
	return out, leftOut
}
