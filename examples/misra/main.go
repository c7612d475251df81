// Command misra is tokenmc for one user-defined algorithm, Misra's
// ping-pong regeneration of a lost token (package pingpong): every tokenmc
// command (list, check, replay, simulate, show, ...) with the same flags,
// output and exit codes, over this algorithm only.
//
//	go run ./examples/misra check --algo misra --n 3
//	go run ./examples/misra check --algo misra/no-increment --n 3
//	go run ./examples/misra replay misra_no-increment.one-ping.trace.json
//	go run ./examples/misra show --format html misra_no-increment.one-ping.trace.json > t.html
package main

import (
	"os"

	"github.com/tokenmc/tokenmc/cmd/cli"
	"github.com/tokenmc/tokenmc/examples/misra/pingpong"
)

func main() {
	os.Exit(cli.Main(pingpong.Algorithm()))
}
