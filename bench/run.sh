#!/usr/bin/env bash
# Side-by-side benchmark of tokenmc and SPIN on the same models (see
# README.md in this directory). For each configuration it runs SPIN
# (gcc -O2 -DSAFETY -DNOREDUCE, single core and -DNCORE=2) and tokenmc
# check (1 and 2 workers), each RUNS times (default 3), and prints one
# table: distinct states, best wall time, states/s and the peak resident
# memory of the best run (GNU time), then the ratios of SPIN's best wall
# time (single core or NCORE=2, whichever is faster) to tokenmc's.
#
# Usage: bench/run.sh [small|all]   (default all; small skips sk n=3 r=3 and torus d=2 r=2)
# Needs spin, gcc, go and GNU time (/usr/bin/time).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
which=${1:-all}
for tool in spin gcc go /usr/bin/time; do
	if ! command -v "$tool" >/dev/null; then
		echo "bench/run.sh: $tool is not installed (apt-get install -y spin gcc time)" >&2
		exit 2
	fi
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/tokenmc" ./cmd/tokenmc

# name | Promela file | spin -D flags | pan -w | tokenmc flags
configs=(
	"sk n=3 r=2|bench/sk.pml|-DN=3 -DR=2|22|--algo suzuki-kasami --n 3 --r 2"
	"sk n=4 r=1|bench/sk.pml|-DN=4 -DR=1|22|--algo suzuki-kasami --n 4 --r 1"
	"torus/literal d=2 r=1|bench/torus.pml|-DD=2 -DR=1|22|--algo torus/literal --n 4 --r 1"
)
if [ "$which" = all ]; then
	configs+=("sk n=3 r=3|bench/sk.pml|-DN=3 -DR=3|24|--algo suzuki-kasami --n 3 --r 3")
	configs+=("torus/literal d=2 r=2|bench/torus.pml|-DD=2 -DR=2|26|--algo torus/literal --n 4 --r 2")
fi

# timed CMD...: runs CMD with GNU time; sets t_wall, t_rss (MB), t_out
timed() {
	/usr/bin/time -f '%e %M' -o "$work/time" "$@" >"$work/out" 2>"$work/err" || {
		echo "bench/run.sh: failed: $*" >&2
		cat "$work/err" "$work/out" >&2
		exit 1
	}
	read -r t_wall t_rss <"$work/time"
	t_rss=$((t_rss / 1024))
	t_out=$(cat "$work/out")
}

# best LABEL CMD...: RUNS runs; prints one table row; sets b_wall, b_states
best() {
	local label=$1
	shift
	local bw="" brss="" states=""
	for _ in $(seq "$RUNS"); do
		timed "$@"
		local s
		if [[ $1 == */pan* ]]; then
			s=$(grep -E '^ *[0-9]+ states, stored' <<<"$t_out" | awk '{print $1}')
		else
			s=$(grep -oE '"states": *[0-9]+' <<<"$t_out" | grep -oE '[0-9]+$')
		fi
		if [ -n "$states" ] && [ "$s" != "$states" ]; then
			echo "bench/run.sh: $label: state counts differ between runs ($states, $s)" >&2
			exit 1
		fi
		states=$s
		if [ -z "$bw" ] || awk "BEGIN{exit !($t_wall < $bw)}"; then
			bw=$t_wall
			brss=$t_rss
		fi
	done
	printf '%-24s %-16s %10s %9ss %12s %8s MB\n' "$cfg" "$label" "$states" "$bw" \
		"$(awk "BEGIN{printf \"%.0f\", ($bw > 0 ? $states / $bw : 0)}")" "$brss"
	b_wall=$bw
	b_states=$states
}

echo "# $(date -u '+%Y-%m-%d %H:%M UTC')  $(nproc) cores  load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# $(spin -V 2>&1 | head -1); $(gcc --version | head -1); $(go version)"
echo "# best of $RUNS runs; wall time and peak RSS of the best run"
printf '%-24s %-16s %10s %10s %12s %11s\n' configuration tool states wall states/s "peak RSS"
ratios=()
for c in "${configs[@]}"; do
	IFS='|' read -r cfg pml dflags hashw tflags <<<"$c"
	# shellcheck disable=SC2086
	(cd "$work" && spin $dflags -a "$OLDPWD/$pml" >/dev/null)
	gcc -O2 -DSAFETY -DNOREDUCE -DMEMLIM=16384 -w -o "$work/pan1" "$work/pan.c"
	gcc -O2 -DSAFETY -DNOREDUCE -DMEMLIM=16384 -DNCORE=2 -w -o "$work/pan2" "$work/pan.c"
	best "spin 1 core" "$work/pan1" -m100000 -w"$hashw"
	spin1=$b_wall
	spin_states=$b_states
	best "spin NCORE=2" "$work/pan2" -m100000 -w"$hashw"
	spin2=$b_wall
	spinbest=$(awk "BEGIN{print ($spin1 < $spin2 ? $spin1 : $spin2)}")
	# shellcheck disable=SC2086
	best "tokenmc 1 worker" "$work/tokenmc" check $tflags --workers 1 --json --progress 0
	tm1=$b_wall
	tm_states=$b_states
	# shellcheck disable=SC2086
	best "tokenmc 2 workers" "$work/tokenmc" check $tflags --workers 2 --json --progress 0
	tm2=$b_wall
	if [ "$spin_states" != "$tm_states" ]; then
		echo "bench/run.sh: $cfg: SPIN stores $spin_states states, tokenmc $tm_states" >&2
		exit 1
	fi
	ratios+=("$(printf '%-24s SPIN best %ss: tokenmc 1 worker %sx, 2 workers %sx' "$cfg" "$spinbest" \
		"$(awk "BEGIN{printf \"%.2f\", $spinbest / ($tm1 > 0 ? $tm1 : 0.01)}")" \
		"$(awk "BEGIN{printf \"%.2f\", $spinbest / ($tm2 > 0 ? $tm2 : 0.01)}")")")
done
echo
echo "# speed-up of tokenmc over SPIN's best wall time (>1: tokenmc is faster)"
printf '%s\n' "${ratios[@]}"
echo "# load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
