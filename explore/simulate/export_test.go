package simulate

// Strategies lists the valid strategies (Options.Strategy), for the
// external tests that run each.
func Strategies() []Strategy { return []Strategy{Uniform, PCT, Swarm} }
