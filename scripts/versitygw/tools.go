//go:build tools

// Package tools pins Versity's S3 gateway so that `go build` can build it from the module proxy.
package tools

import _ "github.com/versity/versitygw/cmd/versitygw"
