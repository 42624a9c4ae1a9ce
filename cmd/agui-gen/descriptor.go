package main

import (
	"context"
	"fmt"
	"os"
	"path"

	"github.com/urfave/cli/v2"

	"github.com/agui-gen/agui-gen/generator/descriptor"
	"github.com/agui-gen/agui-gen/generator/generate"
	"github.com/agui-gen/agui-gen/schemas"
)

// imageFile is the A2A proto's name inside an image, whatever file it was
// read from: its path in the buf module schemas/a2a. With one name, images of
// two spec versions compare file to file in buf breaking.
var imageFile = path.Base(schemas.A2AProto)

func descriptorCommand() *cli.Command {
	return &cli.Command{
		Name:  "descriptor",
		Usage: "write the A2A proto as a descriptor image for buf lint and buf breaking",
		Description: "Compiles the A2A proto (the embedded v1.0.1, or --a2a-proto) and writes a binary " +
			"google.protobuf.FileDescriptorSet: the proto, as " + imageFile + ", with its source info, and every file it " +
			"imports (google/api/*, google/protobuf/*). buf takes it as input, so lint and breaking checks run " +
			"offline with no BSR dependency. The bytes are the same on every run.\n\n" +
			"Examples:\n" +
			"  agui-gen descriptor --out a2a.binpb\n" +
			"  agui-gen descriptor --out old.binpb --a2a-proto specs/a2a-v1.0.0.proto\n" +
			"  buf lint a2a.binpb\n" +
			"  buf breaking a2a.binpb --against old.binpb",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Usage: "output `FILE` (binary FileDescriptorSet, conventionally *.binpb)", Required: true},
			&cli.StringFlag{Name: "a2a-proto", Usage: "A2A proto `FILE` (default: the embedded a2a.proto v1.0.1)"},
			protoPathFlag(),
		},
		Action: runDescriptor,
	}
}

func runDescriptor(c *cli.Context) error {
	in, err := generate.Embedded()
	if err != nil {
		return err
	}
	spec := in.A2AProto
	if f := c.String("a2a-proto"); f != "" {
		if spec, err = generate.ReadSpec(f); err != nil {
			return err
		}
		spec.File = f
	}
	ctx := c.Context
	if ctx == nil {
		ctx = context.Background()
	}
	b, err := descriptor.Image(ctx, imageFile, spec.Data, c.StringSlice("proto-path")...)
	if err != nil {
		return fmt.Errorf("%s: %w", spec.File, err)
	}
	return os.WriteFile(c.String("out"), b, 0o644)
}
