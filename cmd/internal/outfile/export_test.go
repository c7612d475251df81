package outfile

// Unexported names the external tests (package outfile_test) use.
var (
	Target       = linkTarget
	NumberedName = numberedName
)
