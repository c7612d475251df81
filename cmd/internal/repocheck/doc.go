// Package repocheck holds repository-wide tests and nothing else: that
// production code keeps the layering of the packages (layers_test.go),
// and that the documentation's links and cited paths exist
// (docs_test.go).
package repocheck
