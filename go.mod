module github.com/tokenmc/tokenmc

go 1.26

require (
	github.com/anishathalye/porcupine v1.3.1
	pgregory.net/rapid v1.3.0
)
