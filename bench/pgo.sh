#!/usr/bin/env bash
# Regenerates cmd/tokenmc/default.pgo, the CPU profile that `go build` and
# `go run` use for profile-guided optimisation of the tokenmc command (Go
# 1.21 and later read a default.pgo in the main package's directory). The
# profile is that of the explorer's benchmarks on the reference models:
# the breadth-first search of Suzuki-Kasami N=3 R=3 and torus/literal d=2
# R=2 with 2 workers, and the starvation check of the torus d=2 R=1.
# Run it on an otherwise idle machine after changes to the search's hot
# paths (explore, model/protocol), then compare with benchstat or
# bench/run.sh.
#
# Usage: bench/pgo.sh
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go test -c -o "$work/explore.test" ./explore
run() { # run NAME BENCH TIMES
	"$work/explore.test" -test.run '^$' -test.bench "$2" -test.benchtime "$3" -test.cpuprofile "$work/$1.prof" >/dev/null
}
run sk 'Explore/suzuki-kasami/n=3/r=3/workers=2/fp' 2x
run torus 'Explore/torus/literal/n=4/r=2/workers=2/fp' 1x
run live 'LivenessVsSafety/torus/n=4/r=1/starvation' 5x
go tool pprof -proto "$work/sk.prof" "$work/torus.prof" "$work/live.prof" >cmd/tokenmc/default.pgo
echo "bench/pgo.sh: wrote cmd/tokenmc/default.pgo ($(wc -c <cmd/tokenmc/default.pgo) bytes)"
