package main

import (
	"bytes"
	"os"
	"regexp"
	"slices"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/cmd/cli"
	"github.com/tokenmc/tokenmc/cmd/internal/linked"
)

// The binary has every command its package doc lists, history and
// measure's figures included (they register themselves from the packages
// main imports), and no other: the usage lists the doc's commands in the
// doc's order (help and version are not in the usage's list).
func TestEveryCommand(t *testing.T) {
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	var doc []string
	for _, m := range regexp.MustCompile(`(?m)^//\ttokenmc ([a-z]+)`).FindAllSubmatch(src, -1) {
		if n := string(m[1]); n != "help" && n != "version" {
			doc = append(doc, n)
		}
	}
	var out, errb bytes.Buffer
	if code := cli.Run([]string{"help"}, &out, &errb, algorithms.All()...); code != 0 {
		t.Fatalf("tokenmc help: exit %d\n%s", code, errb.String())
	}
	var usage []string
	for _, m := range regexp.MustCompile(`(?m)^  tokenmc ([a-z]+)`).FindAllSubmatch(out.Bytes(), -1) {
		usage = append(usage, string(m[1]))
	}
	if len(doc) < 12 || !slices.Equal(doc, usage) {
		t.Errorf("commands in the package doc: %v\ncommands in the usage:      %v", doc, usage)
	}
	if linked.Linearize == nil || linked.Figures == nil {
		t.Error("the binary does not link the history check or measure's figures")
	}
	for _, c := range doc {
		out.Reset()
		errb.Reset()
		if code := cli.Run([]string{"help", c}, &out, &errb, algorithms.All()...); code != 0 || out.Len() == 0 {
			t.Errorf("tokenmc help %s: exit %d, %d bytes of help\n%s", c, code, out.Len(), errb.String())
		}
	}
}
