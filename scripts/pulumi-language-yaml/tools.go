//go:build tools

// Package tools pins the Pulumi YAML language host (pulumi-language-yaml), which runs a `runtime: yaml`
// project folder, so that `go build` can build it from the module proxy. Its version builds against the
// pulumi/pkg its own go.mod asks for (v3.206.0), not the CLI's: the language host is a separate process that
// speaks gRPC to any 3.x CLI.
package tools

import _ "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml"
