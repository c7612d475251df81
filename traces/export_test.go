package traces

// Unexported names the external tests (package traces_test) use.
const MaxTraceBytes = maxTraceBytes

var ParamsOf = paramsOf
