package protocol_test

import (
	"fmt"

	"github.com/tokenmc/tokenmc/model/protocol"
)

// A token's queue and array as FormatMsg writes them.
func ExampleFormatInts() {
	fmt.Printf("TOKEN(->P2, LN=%s, Q=%s)\n", protocol.FormatInts([]int{1, 0, 0}), protocol.FormatInts(nil))
	// Output:
	// TOKEN(->P2, LN=[1,0,0], Q=[])
}
