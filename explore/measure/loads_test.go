package measure

// lightLoad, heavyLoad and rateLoad build the three kinds of load, for
// the tests.
var (
	lightLoad = Load{Kind: "light"}
	heavyLoad = Load{Kind: "heavy"}
)

// rateLoad is a Poisson arrival rate lambda per Idle process.
func rateLoad(lambda float64) Load { return Load{Kind: "rate", Lambda: lambda} }
