// Package figures adds the figures of measure --out DIR (the docs'
// measurement figures as SVG and PNG, and their table) to the command
// line of package cmd/cli: it links gonum/plot and its fonts. A program
// that embeds the command line imports it for its effect:
//
//	import _ "github.com/tokenmc/tokenmc/cmd/cli/figures"
//
// Without it, cmd/cli does not link gonum/plot, and measure --out says
// which package to import (exit 2). The tokenmc command imports it.
package figures

import (
	"context"
	"io"

	"github.com/tokenmc/tokenmc/cmd/internal/figures"
	"github.com/tokenmc/tokenmc/cmd/internal/linked"
	"github.com/tokenmc/tokenmc/explore/measure"
)

func init() {
	linked.Figures = func(ctx context.Context, dir string, log io.Writer, resolve func(*measure.Config) error) error {
		return figures.Write(ctx, dir, log, resolve)
	}
}
