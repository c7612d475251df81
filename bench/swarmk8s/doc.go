// Package swarmk8s holds a test only: it decodes the Kubernetes manifest
// that 'tokenmc swarm plan' writes, strictly, into the Kubernetes API's
// own batch/v1 Job type, so that a misspelt or misplaced field fails CI.
// It is a module of its own so that k8s.io/api stays out of tokenmc's
// go.mod (users of tokenmc would inherit it); .ci/run runs its tests.
package swarmk8s
