/*
 * The two-dimensional torus, literal reading (torus/literal), as fixed in
 * the project's reference semantics (section 3; the Go model is
 * algorithms/torus with tour end and column end d), for the SPIN side of
 * the benchmark. One SPIN state is one tokenmc state: see README.md.
 * D (2 only) and R are set on the command line: spin -DD=2 -DR=1 -a torus.pml
 */
#ifndef D
#define D 2
#endif
#ifndef R
#define R 1
#endif
#define N (D*D)

#define IDLE 0
#define WAITING 1
#define INCS 2

byte phase[N];
byte made[N];
byte w0[N];       /* Waiting_i = [w0[i], w1[i]][:wlen[i]]; unused slots are 0 */
byte w1[N];
byte wlen[N];
bool held = 0;    /* the token is held (by tokat, which is InCS) or in transit (to tokat) */
byte tokat = 0;
byte rc = 1;      /* RowCounter, ColCounter and ChCol of the token, held or in transit */
short cc = 0;
bool ch = 0;
byte rq[N*N];     /* copies of REQUEST(origin, to) in transit at origin*N+to */

/*
 * The steps' scratch variables i and own are locals of the one process,
 * reset to 0 at the end of every step, so they are constant in every
 * stored state (SPIN's multi-core mode does not allow hidden variables).
 */

#define RIGHT(x) ((x) / D * D + ((x) % D + 1) % D)
#define DOWN(x)  ((((x) / D + 1) % D) * D + (x) % D)

/* the token leaves i for x */
#define SEND(x)  held = 0; tokat = x
/* i enters its CS with the token */
#define ENTER    held = 1; tokat = i; phase[i] = INCS
#define CLEAR    w0[i] = 0; w1[i] = 0; wlen[i] = 0

/* Rule 1: Request(x) */
inline request(x) {
	phase[x] == IDLE && made[x] < R ->
	i = x;
	made[i]++;
	if
	:: wlen[i] == 0 -> w0[i] = i
	:: else -> w1[i] = i
	fi;
	wlen[i]++;
	if
	:: wlen[i] == 1 -> rq[i*N + RIGHT(i)]++
	:: else -> skip
	fi;
	phase[i] = WAITING
}

/* Rule 4: Exit(x) */
inline exit(x) {
	phase[x] == INCS ->
	i = x;
	phase[i] = IDLE;
	CLEAR;
	if
	:: cc == D -> cc = 0; SEND(DOWN(i))
	:: else -> SEND(RIGHT(i))
	fi
}

/* Rule 2: Deliver REQUEST(j, x) */
inline deliverRequest(j, x) {
	rq[j*N + x] > 0 ->
	rq[j*N + x]--;
	i = x;
	if
	:: j != i && wlen[i] == 0 ->
		w0[i] = j;
		wlen[i] = 1;
		rq[j*N + RIGHT(i)]++
	:: else -> skip
	fi
}

/* Rule 3: Deliver TOKEN(x, rc, cc, ch) */
inline deliverToken(x) {
	!held && tokat == x ->
	i = x;
	own = (wlen[i] >= 1 && w0[i] == i) || (wlen[i] == 2 && w1[i] == i);
	if
	:: cc == 0 -> /* from above */
		rc++;
		if
		:: rc == D -> ch = 1; cc = -1; SEND(RIGHT(i))
		:: else ->
			if
			:: wlen[i] == 0 -> SEND(DOWN(i))
			:: else ->
				cc = 1;
				if
				:: own -> ENTER
				:: else -> CLEAR; SEND(RIGHT(i))
				fi
			fi
		fi
	:: cc > 0 -> /* touring a row */
		cc++;
		if
		:: own -> ENTER
		:: else ->
			CLEAR;
			if
			:: cc == D -> cc = 0; SEND(DOWN(i))
			:: else -> SEND(RIGHT(i))
			fi
		fi
	:: cc == -1 -> /* changing column */
		ch = 0;
		rc = 1;
		if
		:: wlen[i] == 0 -> cc = 0; SEND(DOWN(i))
		:: else ->
			cc = 1;
			if
			:: own -> ENTER
			:: else -> CLEAR; SEND(RIGHT(i))
			fi
		fi
	fi
}

/*
 * One process with one control location: every action is one option of
 * the loop, a d_step, so no intermediate state is stored and the state
 * vector holds the variables above and one program counter. The options
 * are listed for D = 2 (N = 4), the benchmark's configurations.
 */
#if D != 2
#error "torus.pml lists the actions for D = 2 only"
#endif

#define STEP(a) :: d_step { a; i = 0; own = 0 }
#define PROC(x) STEP(request(x)) STEP(exit(x)) STEP(deliverToken(x))
#define REQS(j) STEP(deliverRequest(j, 0)) STEP(deliverRequest(j, 1)) STEP(deliverRequest(j, 2)) STEP(deliverRequest(j, 3))

active proctype System()
{
	byte i, own;
end:
	do
	PROC(0)
	PROC(1)
	PROC(2)
	PROC(3)
	REQS(0)
	REQS(1)
	REQS(2)
	REQS(3)
	od
}
