package eventlog

// Unexported names the external tests (package eventlog_test) use.
const (
	MaxLineBytes = maxLineBytes
	MaxSeq       = maxSeq
)

var ParseMapping = parseMapping
