module github.com/tokenmc/tokenmc/bench/swarmk8s

go 1.26.0

replace github.com/tokenmc/tokenmc => ../..

require (
	go.yaml.in/yaml/v2 v2.4.4 // indirect
	k8s.io/api v0.37.2 // indirect
	sigs.k8s.io/yaml v1.6.0 // indirect
)
