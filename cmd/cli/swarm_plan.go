package cli

// swarm plan: the batch jobs that run a swarm's shards, a Kubernetes
// Indexed Job and a Slurm job array, both running the same command line.

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/tokenmc/tokenmc/cmd/internal/memsize"
	"github.com/tokenmc/tokenmc/cmd/internal/outfile"
)

const swarmSynopsis = `tokenmc swarm plan --jobs K --out DIR [flags] -- check|simulate ARGS...
       tokenmc swarm merge [--json] FILE|DIR...

Swarm verification runs K independent, diversified searches (shards) of one
model, as the K jobs of a batch array, and merges their results: see
docs/distributed.md.

  plan   writes DIR/job.yaml (a Kubernetes Indexed Job) and DIR/swarm.sbatch (a
         Slurm job array); both run 'tokenmc ARGS --swarm K --swarm-out
         results', the shard's index coming from JOB_COMPLETION_INDEX or
         SLURM_ARRAY_TASK_ID.
  merge  reads the shards' results/shard-I.json and gives one verdict.

flags:
  --jobs K --out DIR      (plan) shards K; where job.yaml and swarm.sbatch go
  --json                  (merge) print the verdict as one JSON object
  'tokenmc swarm plan --help' lists every flag of plan

examples:
  tokenmc swarm plan --jobs 64 --out plan -- check --algo suzuki-kasami --n 4 --r 2 --bitstate 1GiB
  tokenmc swarm merge results`

const swarmPlanSynopsis = `tokenmc swarm plan --jobs K --out DIR [--name NAME] [--image IMAGE]
                          [--binary PATH] [--cpu N] [--memory SIZE]
                          [--parallelism P] [--retries R] [--time D-HH:MM:SS]
                          [--pvc CLAIM] -- check|simulate ARGS...

Writes DIR/job.yaml, a Kubernetes Indexed Job of K completions, and
DIR/swarm.sbatch, a Slurm job array 0..K-1. Every job runs the same command
line, 'BINARY ARGS --swarm K --swarm-out results' in its working
directory; the scheduler gives each its index (JOB_COMPLETION_INDEX,
SLURM_ARRAY_TASK_ID), which selects the shard's diversification. The shards
write results/shard-I.json and their traces there; 'tokenmc swarm merge
results' gives the verdict. Try one shard on your machine first:
'tokenmc ARGS --swarm K --swarm-index 0'.`

func init() {
	registerCommand("swarm", command{order: 3, synopsis: "swarm plan|merge [flags]", summary: "run a check as K diversified shards on a cluster, merge their results",
		run: func(cat *catalog, args []string, stdout, _ io.Writer) (int, error) {
			return cmdSwarm(cat, args, stdout)
		}})
}

func cmdSwarm(cat *catalog, args []string, stdout io.Writer) (int, error) {
	if len(args) == 0 {
		return 0, badInput("swarm needs a subcommand: plan or merge (see tokenmc swarm --help)")
	}
	// A request for help anywhere, even among a plan's shard arguments
	// (nobody plans a swarm of 'check --help'), shows the page of the
	// subcommand it follows, and never writes a plan.
	for _, a := range args {
		if a != "-h" && a != "-help" && a != "--help" {
			continue
		}
		switch args[0] {
		case "plan":
			return cmdSwarmPlan(cat, []string{"--help"}, stdout)
		case "merge":
			return cmdSwarmMerge(cat, []string{"--help"}, stdout)
		}
		fmt.Fprintln(stdout, named(cat.prog, "usage: "+swarmSynopsis))
		return 0, errHelp
	}
	switch args[0] {
	case "plan":
		return cmdSwarmPlan(cat, args[1:], stdout)
	case "merge":
		return cmdSwarmMerge(cat, args[1:], stdout)
	case "-h", "-help", "--help", "help":
		fmt.Fprintln(stdout, named(cat.prog, "usage: "+swarmSynopsis))
		return 0, errHelp
	}
	return 0, badInput("swarm: unknown subcommand %q; give plan or merge", args[0])
}

// planFlags are swarm plan's own flags.
type planFlags struct {
	jobs, parallelism, retries     *int
	out, name, image, binary, pvc  *string
	cpu, memory, timeLimit         *string
	shardArgs                      []string // the check or simulate command line
	memBytes                       int64
	k8sMemory, slurmMemory, sbTime string
}

// planRefusals are the shard flags the plan sets itself or that would be
// the same file for every shard.
var planRefusals = map[string]string{
	"swarm":       "the plan adds --swarm K itself (from --jobs)",
	"swarm-index": "the scheduler gives each job its index",
	"swarm-out":   "the plan adds --swarm-out results itself",
	"out":         "every shard names its own trace in the results directory",
	"trace-out":   "every shard names its own trace in the results directory",
}

var (
	k8sName    = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]{0,50}[a-z0-9])?$`)
	cpuPattern = regexp.MustCompile(`^([0-9]+(\.[0-9]{1,3})?|[0-9]+m)$`)
	slurmTime  = regexp.MustCompile(`^([0-9]+-)?[0-9]+(:[0-9]{2}){0,2}$`)
)

func cmdSwarmPlan(cat *catalog, args []string, stdout io.Writer) (int, error) {
	fs := cat.newFlagSet("swarm plan", swarmPlanSynopsis, stdout)
	f := &planFlags{
		jobs:        fs.Int("jobs", 0, "number of shards `K` (jobs of the array)"),
		out:         fs.String("out", "", "directory `DIR` to write job.yaml and swarm.sbatch to (created if missing)"),
		name:        fs.String("name", "tokenmc-swarm", "`NAME` of the Kubernetes Job and the Slurm job (lower case letters, digits, -)"),
		image:       fs.String("image", "tokenmc:latest", "container `IMAGE` holding the binary (Kubernetes)"),
		binary:      fs.String("binary", "tokenmc", "the tokenmc binary `PATH` the jobs run (on the image's or the nodes' PATH by default)"),
		cpu:         fs.String("cpu", "1", "CPUs per shard `N` (Kubernetes quantity: 1, 2, 500m)"),
		memory:      fs.String("memory", "2GiB", "memory per shard `SIZE`; a shard's default budget is 75% of it, so give --bitstate well below"),
		parallelism: fs.Int("parallelism", 0, "shards running at once `P` (default: all K)"),
		retries:     fs.Int("retries", 2, "retries `R` of a shard whose pod or task failed (killed, evicted, out of memory)"),
		timeLimit:   fs.String("time", "24:00:00", "Slurm time limit per shard `D-HH:MM:SS`"),
		pvc:         fs.String("pvc", "tokenmc-swarm-results", "Kubernetes PersistentVolumeClaim `CLAIM` for the results (ReadWriteMany)"),
	}
	own, shardArgs, hasSep := cutArgs(args)
	pos, err := parseFlags(fs, own)
	if err != nil {
		return 0, err
	}
	if len(pos) > 0 {
		return 0, badInput("swarm plan: unexpected argument %q before --; give the shard's command line after --, e.g. -- check --algo NAME --bitstate 1GiB", pos[0])
	}
	if !hasSep || len(shardArgs) == 0 {
		return 0, badInput("swarm plan needs the shard's command line after --, e.g. tokenmc swarm plan --jobs 8 --out plan -- check --algo suzuki-kasami --n 4 --r 2 --bitstate 1GiB")
	}
	f.shardArgs = shardArgs
	if err := f.validate(cat); err != nil {
		return 0, err
	}
	if err := os.MkdirAll(*f.out, 0o755); err != nil {
		return 0, badInput("swarm plan: --out %s: %v", *f.out, err)
	}
	job, sbatch := filepath.Join(*f.out, "job.yaml"), filepath.Join(*f.out, "swarm.sbatch")
	if _, err := outfile.WriteFile(job, outfile.Replace, []byte(f.k8sJob())); err != nil {
		return 0, badInput("swarm plan: %v", err)
	}
	if _, err := outfile.WriteFile(sbatch, outfile.Replace, []byte(f.slurmScript())); err != nil {
		return 0, badInput("swarm plan: %v", err)
	}
	if err := os.Chmod(sbatch, 0o755); err != nil {
		return 0, badInput("swarm plan: %v", err)
	}
	fmt.Fprintf(stdout, "wrote %s (Kubernetes Indexed Job) and %s (Slurm job array) for %d shards running:\n  %s\n",
		job, sbatch, *f.jobs, shellJoin(f.command()))
	fmt.Fprintf(stdout, "Kubernetes: create the ReadWriteMany claim %s, then kubectl apply -f %s\n", *f.pvc, job)
	fmt.Fprintf(stdout, "Slurm: sbatch %s (from the directory that should hold results/)\n", sbatch)
	fmt.Fprintf(stdout, "then: %s swarm merge results\n", progOr(cat.prog))
	return exitOK, nil
}

// cutArgs splits args at the first "--".
func cutArgs(args []string) (own, rest []string, found bool) {
	for i, a := range args {
		if a == "--" {
			return args[:i], args[i+1:], true
		}
	}
	return args, nil, false
}

// flagName returns the name of a flag argument ("--algo=x" -> "algo"), or
// "" for a value.
func flagName(arg string) string {
	if !strings.HasPrefix(arg, "-") || arg == "-" {
		return ""
	}
	name := strings.TrimLeft(arg, "-")
	name, _, _ = strings.Cut(name, "=")
	return name
}

func (f *planFlags) validate(cat *catalog) error {
	k := *f.jobs
	switch {
	case k < 1 || k > maxSwarmShards:
		return badInput("swarm plan needs --jobs K, the number of shards, 1..%d", maxSwarmShards)
	case *f.out == "":
		return badInput("swarm plan needs --out DIR, where job.yaml and swarm.sbatch are written")
	case !k8sName.MatchString(*f.name):
		return badInput("swarm plan: --name %q is not a valid job name; use at most 52 lower case letters, digits and '-', starting and ending with a letter or digit", *f.name)
	case strings.TrimSpace(*f.image) == "" || strings.ContainsAny(*f.image, " \t\n"):
		return badInput("swarm plan: --image %q is not an image reference", *f.image)
	case strings.TrimSpace(*f.binary) == "":
		return badInput("swarm plan: --binary must name the tokenmc binary")
	case !cpuPattern.MatchString(*f.cpu):
		return badInput("swarm plan: --cpu %q is not a CPU count; give e.g. 1, 2 or 500m", *f.cpu)
	case *f.parallelism < 0 || *f.parallelism > k:
		return badInput("swarm plan: --parallelism %d is out of range; give 1..%d (0: all)", *f.parallelism, k)
	case *f.retries < 0 || *f.retries > 100:
		return badInput("swarm plan: --retries %d is out of range; give 0..100", *f.retries)
	case !slurmTime.MatchString(*f.timeLimit):
		return badInput("swarm plan: --time %q is not a Slurm time limit; give e.g. 24:00:00 or 2-00:00:00", *f.timeLimit)
	case !k8sName.MatchString(*f.pvc):
		return badInput("swarm plan: --pvc %q is not a valid claim name", *f.pvc)
	}
	b, err := memsize.Parse(*f.memory)
	if err != nil {
		return badInput("swarm plan: --memory: %v", err)
	}
	if b < 64<<20 {
		return badInput("swarm plan: --memory %s is too small; give at least 64MiB", *f.memory)
	}
	f.memBytes = b
	mib := (b + 1<<20 - 1) >> 20
	f.k8sMemory, f.slurmMemory = fmt.Sprintf("%dMi", mib), fmt.Sprintf("%dM", mib)
	if *f.parallelism == 0 {
		*f.parallelism = k
	}
	sub := f.shardArgs[0]
	if sub != "check" && sub != "simulate" {
		return badInput("swarm plan: the shard's command line must start with check or simulate, got %q", sub)
	}
	algo := ""
	for i, a := range f.shardArgs[1:] {
		name := flagName(a)
		if msg, ok := planRefusals[name]; ok {
			return badInput("swarm plan: %s %s cannot take %s: %s", sub, strings.Join(f.shardArgs[1:], " "), a, msg)
		}
		if sub == "check" {
			if msg, ok := checkRefusals[name]; ok {
				return badInput("swarm plan: --%s cannot be combined with --swarm: %s", name, msg)
			}
		}
		if sub == "simulate" && name == "swarm-depth" {
			return badInput("swarm plan: --swarm-depth is for check shards; simulate shards differ by their seeds")
		}
		if name == "algo" {
			if _, v, ok := strings.Cut(a, "="); ok {
				algo = v
			} else if i+2 < len(f.shardArgs) {
				algo = f.shardArgs[i+2]
			}
		}
	}
	if algo == "" {
		return badInput("swarm plan: the shard's command line needs --algo NAME")
	}
	if _, _, err := cat.lookup(algo); err != nil {
		return badInput("swarm plan: %v", err)
	}
	return nil
}

// command is the command line every job runs.
func (f *planFlags) command() []string {
	c := append([]string{*f.binary}, f.shardArgs...)
	return append(c, "--swarm", strconv.Itoa(*f.jobs), "--swarm-out", "results")
}

// shellQuote quotes s for a POSIX shell: single quotes, each single quote
// written as '\”.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=./,:@%+") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func shellJoin(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = shellQuote(a)
	}
	return strings.Join(q, " ")
}

// yamlString quotes s as a YAML double-quoted scalar: JSON's string
// escapes are a subset of YAML's.
func yamlString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// k8sJob is the Kubernetes Indexed Job manifest.
func (f *planFlags) k8sJob() string {
	cmd := f.command()
	var args strings.Builder
	for _, a := range cmd[1:] {
		fmt.Fprintf(&args, "            - %s\n", yamlString(a))
	}
	return fmt.Sprintf(`# A tokenmc swarm of %[1]d shards as a Kubernetes Indexed Job (batch/v1),
# written by 'tokenmc swarm plan'. Every pod runs the same command line;
# Kubernetes sets JOB_COMPLETION_INDEX (0..%[2]d) in each, which selects the
# shard's diversification. Each shard writes results/shard-I.json (and
# results/shard-I.trace.json on a violation) to the claim %[3]s, then
# exits 0 whatever its verdict: 'tokenmc swarm merge results' gives it.
#
# Before: create a ReadWriteMany PersistentVolumeClaim named %[3]s.
# Run: kubectl apply -f job.yaml; kubectl wait --for=condition=complete job/%[4]s
# Then copy the results off the claim and run 'tokenmc swarm merge results'.
apiVersion: batch/v1
kind: Job
metadata:
  name: %[5]s
  labels:
    app.kubernetes.io/name: tokenmc-swarm
spec:
  # Indexed: completions pods, numbered 0..completions-1 in
  # JOB_COMPLETION_INDEX; the job is complete when every index succeeded.
  completionMode: Indexed
  # completions: the number of shards K (the same K as --swarm).
  completions: %[1]d
  # parallelism: how many shards run at once; the others wait for a slot.
  parallelism: %[6]d
  # backoffLimitPerIndex: retries of one shard whose pod failed (killed,
  # out of memory, node lost) before that index is marked failed; the
  # other shards go on (Kubernetes 1.29 or later).
  backoffLimitPerIndex: %[7]d
  # podFailurePolicy: exit 2 (bad input) is the same on every shard, so
  # it fails the whole job at once; exit 4 (an internal error of tokenmc)
  # would repeat, so it fails the index without retries; a pod evicted or
  # preempted (DisruptionTarget) is retried without counting against
  # backoffLimitPerIndex.
  podFailurePolicy:
    rules:
      - action: FailJob
        onExitCodes:
          containerName: shard
          operator: In
          values: [2]
      - action: FailIndex
        onExitCodes:
          containerName: shard
          operator: In
          values: [4]
      - action: Ignore
        onPodConditions:
          - type: DisruptionTarget
  template:
    metadata:
      labels:
        app.kubernetes.io/name: tokenmc-swarm
    spec:
      # Never: a failed shard is retried as a new pod (required by
      # podFailurePolicy).
      restartPolicy: Never
      containers:
        - name: shard
          image: %[8]s
          workingDir: /work
          command:
            - %[9]s
          args:
%[10]s          resources:
            # requests = limits: the shard's memory budget defaults to 75%%
            # of the container's limit (cgroup aware).
            requests:
              cpu: %[11]s
              memory: %[12]s
            limits:
              cpu: %[11]s
              memory: %[12]s
          volumeMounts:
            - name: results
              mountPath: /work/results
      volumes:
        # results: where every shard writes shard-I.json and its trace.
        - name: results
          persistentVolumeClaim:
            claimName: %[13]s
`, *f.jobs, *f.jobs-1, *f.pvc, *f.name, yamlString(*f.name), *f.parallelism, *f.retries, yamlString(*f.image),
		yamlString(cmd[0]), args.String(), yamlString(*f.cpu), yamlString(f.k8sMemory), yamlString(*f.pvc))
}

// slurmScript is the Slurm job array script.
func (f *planFlags) slurmScript() string {
	array := fmt.Sprintf("0-%d", *f.jobs-1)
	if *f.parallelism < *f.jobs {
		array += fmt.Sprintf("%%%d", *f.parallelism)
	}
	cpus := *f.cpu
	if strings.HasSuffix(cpus, "m") || strings.Contains(cpus, ".") {
		c, _ := strconv.ParseFloat(strings.TrimSuffix(cpus, "m"), 64)
		if strings.HasSuffix(cpus, "m") {
			c /= 1000
		}
		cpus = strconv.Itoa(max(1, int(c+0.999)))
	}
	return fmt.Sprintf(`#!/bin/bash
# A tokenmc swarm of %[1]d shards as a Slurm job array, written by
# 'tokenmc swarm plan'. Every task runs the same command line; Slurm sets
# SLURM_ARRAY_TASK_ID (0..%[2]d) in each, which selects the shard's
# diversification. Each shard writes results/shard-I.json (and
# results/shard-I.trace.json on a violation) under the directory sbatch
# was run from, then exits 0 whatever its verdict: run
# 'tokenmc swarm merge results' when the array is done.
#
# Run: sbatch swarm.sbatch (the %%N after --array, if any, is how many
# shards run at once). A task that fails (killed, out of memory) can be
# rerun alone: sbatch --array=I swarm.sbatch.
#SBATCH --job-name=%[3]s
#SBATCH --array=%[4]s
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=%[5]s
#SBATCH --mem=%[6]s
#SBATCH --time=%[7]s
#SBATCH --output=%[3]s-%%A_%%a.out
set -eu
mkdir -p results
exec %[8]s
`, *f.jobs, *f.jobs-1, *f.name, array, cpus, f.slurmMemory, *f.timeLimit, shellJoin(f.command()))
}
