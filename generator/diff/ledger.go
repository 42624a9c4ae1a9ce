package diff

import (
	"fmt"
	"maps"
	"slices"

	"github.com/agui-gen/agui-gen/generator/load/freeze"
)

// Ledgers compares two AG-UI protobuf number ledgers, old and new, where
// the schemas alone cannot tell: a slot whose number moved, a number given
// to another slot of the same message or enum, and a slot dropped from
// the ledger (whose number a later schema could then reuse) break the
// protobuf wire; a slot numbered anew is compatible. Either may be nil (no
// ledger on that side): then there is nothing to compare.
func Ledgers(old, new *freeze.Ledger) []Change {
	if old == nil || new == nil {
		return nil
	}
	var out []Change
	// holder maps each (scope, number) of the old ledger to its slot.
	holder := map[[2]string]string{}
	for k, n := range old.Numbers {
		holder[[2]string{freeze.Scope(k), fmt.Sprint(n)}] = k
	}
	for _, k := range slices.Sorted(maps.Keys(new.Numbers)) {
		n := new.Numbers[k]
		was, existed := old.Numbers[k]
		switch {
		case existed && was != n:
			out = append(out, Change{Kind: "changed", Element: "field number", Path: k,
				Detail:   fmt.Sprintf("protobuf number %d → %d: peers that kept the old number read the field as another or drop it", was, n),
				Breaking: breaks(ProtoWire), From: old.File, To: new.File})
		case existed:
		default:
			c := Change{Kind: "added", Element: "field number", Path: k, Detail: fmt.Sprintf("numbered %d", n), To: new.File}
			if prev, taken := holder[[2]string{freeze.Scope(k), fmt.Sprint(n)}]; taken {
				c.Detail = fmt.Sprintf("numbered %d, which was %s's: a peer on the old ledger reads one as the other", n, prev)
				c.Breaking = breaks(ProtoWire)
			}
			out = append(out, c)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(old.Numbers)) {
		if _, kept := new.Numbers[k]; !kept {
			out = append(out, Change{Kind: "removed", Element: "field number", Path: k,
				Detail:   fmt.Sprintf("number %d is no longer recorded, so a later schema may give it to another slot; the ledger is append-only", old.Numbers[k]),
				Breaking: breaks(ProtoWire), From: old.File})
		}
	}
	return out
}
