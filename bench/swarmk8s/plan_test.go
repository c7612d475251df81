package swarmk8s

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/yaml"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/cmd/cli"
)

// plan runs 'tokenmc swarm plan' with args and returns the manifest.
func plan(t *testing.T, args ...string) []byte {
	t.Helper()
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	all := append([]string{"swarm", "plan", "--out", out}, args...)
	if code := cli.Run(all, &stdout, &stderr, algorithms.All()...); code != 0 {
		t.Fatalf("tokenmc %s: exit %d\n%s", strings.Join(all, " "), code, stderr.String())
	}
	b, err := os.ReadFile(filepath.Join(out, "job.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestPlanManifestIsAnIndexedJob decodes the manifest strictly (an
// unknown or misplaced field is an error) into batch/v1 Job and checks
// the settings the plan promises: an Indexed Job of K completions, the
// parallelism and retries asked for, the pod failure policy, the
// resources, the results volume and the exact command line.
func TestPlanManifestIsAnIndexedJob(t *testing.T) {
	shard := []string{"check", "--algo", "suzuki-kasami/send-in-cs", "--n", "4", "--r", "2", "--bitstate", "64MiB", "--workdir", `/tmp/it's a "$dir"`}
	b := plan(t, append([]string{"--jobs", "8", "--parallelism", "3", "--retries", "5", "--memory", "3GiB", "--cpu", "2",
		"--image", "registry.example/tokenmc:v1", "--name", "sk-swarm", "--pvc", "sk-results", "--"}, shard...)...)
	var job batchv1.Job
	if err := yaml.UnmarshalStrict(b, &job); err != nil {
		t.Fatalf("the manifest is not a batch/v1 Job: %v\n%s", err, b)
	}
	s := job.Spec
	switch {
	case job.APIVersion != "batch/v1" || job.Kind != "Job" || job.Name != "sk-swarm":
		t.Errorf("type %s %s name %q", job.APIVersion, job.Kind, job.Name)
	case s.CompletionMode == nil || *s.CompletionMode != batchv1.IndexedCompletion:
		t.Errorf("completion mode %v, want Indexed", s.CompletionMode)
	case s.Completions == nil || *s.Completions != 8 || s.Parallelism == nil || *s.Parallelism != 3:
		t.Errorf("completions %v parallelism %v, want 8 and 3", s.Completions, s.Parallelism)
	case s.BackoffLimitPerIndex == nil || *s.BackoffLimitPerIndex != 5:
		t.Errorf("backoffLimitPerIndex %v, want 5", s.BackoffLimitPerIndex)
	case s.PodFailurePolicy == nil || len(s.PodFailurePolicy.Rules) != 3:
		t.Fatalf("pod failure policy %+v", s.PodFailurePolicy)
	}
	rules := s.PodFailurePolicy.Rules
	if rules[0].Action != batchv1.PodFailurePolicyActionFailJob || !slices.Equal(rules[0].OnExitCodes.Values, []int32{2}) ||
		rules[1].Action != batchv1.PodFailurePolicyActionFailIndex || !slices.Equal(rules[1].OnExitCodes.Values, []int32{4}) ||
		rules[2].Action != batchv1.PodFailurePolicyActionIgnore || rules[2].OnPodConditions[0].Type != corev1.DisruptionTarget {
		t.Errorf("pod failure rules %+v", rules)
	}
	pod := s.Template.Spec
	if pod.RestartPolicy != corev1.RestartPolicyNever || len(pod.Containers) != 1 || len(pod.Volumes) != 1 {
		t.Fatalf("pod spec %+v", pod)
	}
	c := pod.Containers[0]
	want := append(shard, "--swarm", "8", "--swarm-out", "results")
	if c.Image != "registry.example/tokenmc:v1" || !slices.Equal(c.Command, []string{"tokenmc"}) || !slices.Equal(c.Args, want) {
		t.Errorf("container runs %s %q, want tokenmc %q", c.Image, append(c.Command, c.Args...), want)
	}
	if c.WorkingDir != "/work" || len(c.VolumeMounts) != 1 || c.VolumeMounts[0].MountPath != "/work/results" || c.VolumeMounts[0].Name != pod.Volumes[0].Name {
		t.Errorf("results are not mounted where the shards write them: %+v in %s", c.VolumeMounts, c.WorkingDir)
	}
	if v := pod.Volumes[0].PersistentVolumeClaim; v == nil || v.ClaimName != "sk-results" {
		t.Errorf("results volume %+v", pod.Volumes[0])
	}
	mem, cpu := c.Resources.Limits[corev1.ResourceMemory], c.Resources.Limits[corev1.ResourceCPU]
	if mem.Cmp(resource.MustParse("3Gi")) != 0 || cpu.Cmp(resource.MustParse("2")) != 0 || !c.Resources.Requests.Memory().Equal(mem) {
		t.Errorf("resources %+v", c.Resources)
	}
}

// TestStrictDecodingCatchesMisspelling: the decoding above would catch a
// misspelt field (the test can fail).
func TestStrictDecodingCatchesMisspelling(t *testing.T) {
	b := plan(t, "--jobs", "2", "--", "check", "--algo", "suzuki-kasami")
	bad := bytes.Replace(b, []byte("\n  backoffLimitPerIndex:"), []byte("\n  backoffLimitPerIndx:"), 1)
	if bytes.Equal(bad, b) {
		t.Fatal("the manifest has no backoffLimitPerIndex")
	}
	var job batchv1.Job
	if err := yaml.UnmarshalStrict(bad, &job); err == nil {
		t.Error("a misspelt field was accepted")
	}
}
