package generate

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/agui-gen/agui-gen/generator/diff"
	"github.com/agui-gen/agui-gen/generator/ir"
)

// beyondEmbedded is the note for an A2A proto, given without a version,
// that is read as the embedded proto's version (its package is the
// embedded one's) but has what the embedded proto lacks: it says which
// version the generated server will serve it as, that clients of that
// version will be sent what it adds, and which flag names its version
// instead. "" when there is nothing to say.
func beyondEmbedded(in Inputs, given *ir.Package) (string, error) {
	embedded, err := Embedded()
	if err != nil {
		return "", err
	}
	version := given.Sources[0].Version
	if in.A2AVersion != "" || version != embedded.A2AVersion || bytes.Equal(in.A2AProto.Data, embedded.A2AProto.Data) {
		return "", nil
	}
	cur, err := loadProto(Spec{File: embedded.A2AProto.File, Data: embedded.A2AProto.Data, Version: embedded.A2AVersion})
	if err != nil {
		return "", err
	}
	var added []string
	for _, c := range diff.Compare(cur, given).Changes {
		if c.Kind == "added" {
			added = append(added, c.Element+" "+c.Path)
		}
	}
	if len(added) == 0 {
		return "", nil
	}
	const shown = 4
	list := strings.Join(added[:min(len(added), shown)], ", ")
	if len(added) > shown {
		list += fmt.Sprintf(" and %d more", len(added)-shown)
	}
	next := fmt.Sprintf("%d.%d", major(version), minor(version)+1)
	return fmt.Sprintf("%s has %d elements the embedded A2A %s proto lacks (%s), but its package (%s) names no later version, so it is served as A2A %s "+
		"and A2A %s clients are sent what it adds; if it defines a later version, name it with --a2a-version (such as --a2a-version %s)",
		in.A2AProto.File, len(added), version, list, given.Proto.Package, version, version, next), nil
}

// minor is the minor number of a Major.Minor version.
func minor(version string) int {
	_, m, _ := strings.Cut(version, ".")
	n, _ := strconv.Atoi(m)
	return n
}
