package wire

// ReadMap reads an object with free member names whose values read is given
// (a schema's typed additionalProperties), keeping an empty object distinct
// from an absent one (a nil map).
func ReadMap[T any](r *Reader, read func(v *T, r *Reader)) map[string]T {
	if !r.BeginObject() {
		return nil
	}
	out := map[string]T{}
	for r.NextField() {
		k := string(r.Key())
		var v T
		read(&v, r)
		out[k] = v
	}
	return out
}
