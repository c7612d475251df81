// Package memsize holds the command line's memory figures: the budget a
// search gets when --memory is not given (from the memory available to
// the process) and the parser of size flags such as "16GiB" (--memory,
// --spill, --bitstate).
package memsize

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
)

// DefaultBudget is the budget a search gets when no --memory is given: 75%
// of the memory available to the process, that is the smaller of the
// memory the kernel reports as available (MemAvailable in /proc/meminfo)
// and the cgroup limit (memory.max, cgroup v2, or memory.limit_in_bytes,
// v1) minus what the cgroup already uses. It returns 0 when neither can be
// read.
func DefaultBudget() int64 {
	avail := int64(math.MaxInt64)
	if v := meminfo("MemAvailable:"); v > 0 {
		avail = v
	}
	if lim := cgroupLimit(); lim > 0 {
		used := readInt("/sys/fs/cgroup/memory.current")
		if used <= 0 {
			used = readInt("/sys/fs/cgroup/memory/memory.usage_in_bytes")
		}
		if lim-used < avail {
			avail = max(lim-used, 0)
		}
	}
	if avail == math.MaxInt64 || avail <= 0 {
		return 0
	}
	return avail / 4 * 3
}

func meminfo(field string) int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field); ok {
			if fs := strings.Fields(rest); len(fs) >= 1 {
				kb, err := strconv.ParseInt(fs[0], 10, 64)
				if err == nil {
					return kb * 1024
				}
			}
		}
	}
	return 0
}

// cgroupLimit returns the memory limit of this process's cgroup, or 0 if
// there is none ("max") or it cannot be read.
func cgroupLimit() int64 {
	for _, p := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		if v := readInt(p); v > 0 && v < 1<<60 {
			return v
		}
	}
	return 0
}

func readInt(path string) int64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		return 0
	}
	return v
}

// Parse parses a memory or disk size such as "16GiB", "1500MiB",
// "512M", "2g" or "1048576" (bytes). Units: B, K/KB/KiB, M/MB/MiB,
// G/GB/GiB, T/TB/TiB, case-insensitive, all powers of 1024. A fraction is
// allowed ("1.5GiB").
func Parse(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.') {
		i++
	}
	num, unit := t[:i], strings.ToLower(strings.TrimSpace(t[i:]))
	v, err := strconv.ParseFloat(num, 64)
	if num == "" || err != nil || v < 0 {
		return 0, fmt.Errorf("size %q: want a number and a unit, e.g. 16GiB, 1500MiB or 512M", s)
	}
	var mul float64
	switch unit {
	case "", "b":
		mul = 1
	case "k", "kb", "kib":
		mul = 1 << 10
	case "m", "mb", "mib":
		mul = 1 << 20
	case "g", "gb", "gib":
		mul = 1 << 30
	case "t", "tb", "tib":
		mul = 1 << 40
	default:
		return 0, fmt.Errorf("size %q: unknown unit %q (use B, KiB, MiB, GiB or TiB)", s, t[i:])
	}
	b := v * mul
	if b >= math.MaxInt64/2 {
		return 0, fmt.Errorf("size %q is too large", s)
	}
	return int64(b), nil
}
