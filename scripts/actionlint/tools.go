//go:build tools

// Package tools pins actionlint, the GitHub Actions workflow linter that scripts/lint-workflows.sh builds
// from the Go module proxy; go.sum verifies every later download.
package tools

import _ "github.com/rhysd/actionlint/cmd/actionlint"
