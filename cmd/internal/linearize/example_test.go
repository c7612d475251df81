package linearize_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/tokenmc/tokenmc/cmd/internal/history"
	"github.com/tokenmc/tokenmc/cmd/internal/linearize"
)

// Two clients whose CS stays overlap: P1's acquire returns while P0 holds
// the lock, so no sequential order of the operations is a legal run of a
// lock.
func Example() {
	log := `{"p":0,"op":"acquire","ev":"call","t_ns":0}
{"p":1,"op":"acquire","ev":"call","t_ns":5}
{"p":0,"op":"acquire","ev":"return","t_ns":10}
{"p":1,"op":"acquire","ev":"return","t_ns":15}
{"p":0,"op":"release","ev":"call","t_ns":20}
{"p":0,"op":"release","ev":"return","t_ns":22}
`
	h, err := history.Read(strings.NewReader(log), "example")
	if err != nil {
		fmt.Println(err)
		return
	}
	r := linearize.Check(h, time.Second)
	fmt.Println(h.Header.Model, r.Operations, r.Linearizable)
	// Output: lock 3 false
}
