package protocol

// formatProc renders p with the protocol's FormatProc (ProcessDescription's
// Text), "" without one.
func (p *Protocol[P, M]) formatProc(local *P) string {
	if p.FormatProc == nil {
		return ""
	}
	return p.FormatProc(local)
}
