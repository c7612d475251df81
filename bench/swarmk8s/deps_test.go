package swarmk8s

import (
	_ "k8s.io/api/batch/v1"
	_ "sigs.k8s.io/yaml"
)
