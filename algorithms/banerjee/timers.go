package banerjee

// Timer is a timer (or phase end) of a process: Timer(Pi, t=k) in traces
// is timer k of Pi. Each algorithm has its own set: the basic algorithm
// and banerjee-seq the first two, banerjee-sf one more, banerjee-rec five
// more. The numbers are those of the traces, so banerjee-sf's TimerMonitor
// and banerjee-rec's TimerRetrans are both t=2 (the two never meet in one
// model; the variant's handler set interprets its own timers).
type Timer int

// Timers of every variant (§2.1, algorithms.md §6.2: the phase ends).
const (
	TimerCollect Timer = 0 // end of the request-collection phase (EndCollection)
	TimerForward Timer = 1 // end of the request-forwarding phase (EndForwarding)
)

// Timer of banerjee-sf (§4.1).
const (
	TimerMonitor Timer = 2 // end of collection, routing the token via the monitor
)

// Timers of banerjee-rec (§6, algorithms.md §6.5).
const (
	TimerRetrans  Timer = 2 // request retransmission timeout
	TimerToken    Timer = 3 // token timeout (WARNING, or the arbiter's own enquiry)
	TimerEnquiry  Timer = 4 // enquiry timeout (decide with the replies received)
	TimerTakeover Timer = 5 // the previous arbiter takes over from a crashed arbiter
	TimerCrash    Timer = 6 // with crash=1: the process crashes (a fault, not a timer)
)

// The number of timers of each algorithm (protocol.Protocol.Timers).
const (
	timersBasic = int(TimerForward) + 1
	timersSF    = int(TimerMonitor) + 1
	timersRec   = int(TimerCrash) + 1
)
