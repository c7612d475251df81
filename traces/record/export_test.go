package record

// New is newLog for the external tests: a log written to a buffer.
var New = newLog
