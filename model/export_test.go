package model

// DecoderPos returns the offset of the next byte d reads (for the codec
// tests).
func DecoderPos(d *Decoder) int { return d.pos }
