package jsonwire

// readMap reads an object with free member names whose values read is given
// (a schema's typed additionalProperties), keeping an empty object distinct
// from an absent one (a nil map).
func readMap[T any](r *reader, read func(v *T, r *reader)) map[string]T {
	if !r.beginObject() {
		return nil
	}
	out := map[string]T{}
	for r.nextField() {
		k := string(r.key())
		var v T
		read(&v, r)
		out[k] = v
	}
	return out
}
