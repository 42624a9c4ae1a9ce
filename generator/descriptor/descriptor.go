// Package descriptor writes a proto file as a descriptor "image": a binary
// google.protobuf.FileDescriptorSet holding the file and every file it
// imports, dependencies first, with the file's source info (positions and
// comments). buf takes such an image as input for lint and breaking, so both
// run offline: the google/api imports come from the descriptors genproto
// registers, the same way generator/load/proto compiles the proto, and no
// BSR dependency or googleapis tree is needed.
package descriptor

import (
	"context"
	"fmt"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	protoload "github.com/agui-gen/agui-gen/generator/load/proto"
)

// Image compiles the proto file named file (its bytes are data) and returns
// the binary FileDescriptorSet of it and its transitive imports. The file
// keeps the name file in the set, so images of two versions compare file to
// file only when both use the same name. The bytes are deterministic: the
// same input gives the same image on every run.
func Image(ctx context.Context, file string, data []byte, importPaths ...string) ([]byte, error) {
	fd, err := protoload.Compile(ctx, file, data, protoload.WithImportPaths(importPaths...))
	if err != nil {
		return nil, err
	}
	set, err := fileSet(fd)
	if err != nil {
		return nil, err
	}
	return proto.MarshalOptions{Deterministic: true}.Marshal(set)
}

// fileSet returns fd and its transitive imports as a FileDescriptorSet in
// topological order (each file after the files it imports, each file once,
// imports visited in declaration order).
func fileSet(fd protoreflect.FileDescriptor) (*descriptorpb.FileDescriptorSet, error) {
	set := &descriptorpb.FileDescriptorSet{}
	seen := map[string]bool{}
	var add func(fd protoreflect.FileDescriptor) error
	add = func(fd protoreflect.FileDescriptor) error {
		if seen[fd.Path()] {
			return nil
		}
		seen[fd.Path()] = true
		if fd.IsPlaceholder() {
			return fmt.Errorf("%s: import not resolved", fd.Path())
		}
		imports := fd.Imports()
		for i := range imports.Len() {
			if err := add(imports.Get(i).FileDescriptor); err != nil {
				return err
			}
		}
		set.File = append(set.File, protodesc.ToFileDescriptorProto(fd))
		return nil
	}
	if err := add(fd); err != nil {
		return nil, err
	}
	return set, nil
}
