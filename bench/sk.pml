/*
 * Suzuki-Kasami as fixed in the project's reference semantics (section 2;
 * the Go model is algorithms/suzukikasami), for the SPIN side of the
 * benchmark. One SPIN state is one tokenmc state: see README.md for the
 * encoding. N (2..4) and R (1..3) are set on the command line:
 * spin -DN=3 -DR=1 -a sk.pml
 */
#ifndef N
#define N 3
#endif
#ifndef R
#define R 1
#endif

#define IDLE 0
#define WAITING 1
#define INCS 2
#define NONE 255

byte phase[N];
byte made[N];
byte RN[N*N];     /* RN[i*N+j] is RN_i[j] */
byte holder = 0;  /* the process holding the token, NONE while it is in transit */
byte tokto = 0;   /* the receiver of the TOKEN in transit; 0 while it is held */
byte LN[N];       /* the token's data, held or in transit */
byte Q[N];        /* the token's queue; the slots from qlen on are 0 */
byte qlen = 0;
byte req[N*N*R];  /* copies of REQ(from, to, sn) in transit at (from*N+to)*R+sn-1 */

/*
 * The steps' scratch variables j, k, h and inq are locals of the one
 * process, reset to 0 at the end of every step, so they are constant in
 * every stored state (SPIN's multi-core mode does not allow hidden
 * variables, which would keep them out of the state vector).
 */

/* Rule 1: Request(i) */
inline request(i) {
	phase[i] == IDLE && made[i] < R ->
	made[i]++;
	if
	:: holder == i -> phase[i] = INCS
	:: else ->
		RN[i*N+i]++;
		j = 0;
		do
		:: j < N ->
			if
			:: j != i -> req[(i*N+j)*R + RN[i*N+i] - 1]++
			:: else -> skip
			fi;
			j++
		:: else -> break
		od;
		phase[i] = WAITING
	fi
}

/* Rule 2: Exit(i) */
inline exit(i) {
	phase[i] == INCS ->
	phase[i] = IDLE;
	if
	:: holder == i ->
		LN[i] = RN[i*N+i];
		j = 0;
		do
		:: j < N ->
			inq = 0;
			k = 0;
			do
			:: k < qlen -> inq = inq || Q[k] == j; k++
			:: else -> break
			od;
			if
			:: !inq && RN[i*N+j] == LN[j] + 1 -> Q[qlen] = j; qlen++
			:: else -> skip
			fi;
			j++
		:: else -> break
		od;
		if
		:: qlen > 0 ->
			h = Q[0];
			k = 0;
			do
			:: k + 1 < qlen -> Q[k] = Q[k+1]; k++
			:: else -> break
			od;
			qlen--;
			Q[qlen] = 0;
			holder = NONE;
			tokto = h
		:: else -> skip
		fi
	:: else -> skip
	fi
}

/* Rule 3: Deliver REQ(f, i, sn) */
inline deliverReq(f, i, sn) {
	req[(f*N+i)*R + sn - 1] > 0 ->
	req[(f*N+i)*R + sn - 1]--;
	if
	:: RN[i*N+f] < sn -> RN[i*N+f] = sn
	:: else -> skip
	fi;
	if
	:: holder == i && phase[i] == IDLE && RN[i*N+f] == LN[f] + 1 ->
		holder = NONE;
		tokto = f
	:: else -> skip
	fi
}

/* Rule 4: Deliver TOKEN(i, LN, Q) */
inline deliverToken(i) {
	holder == NONE && tokto == i ->
	holder = i;
	tokto = 0;
	phase[i] = INCS
}

/*
 * One process with one control location: every action is one option of
 * the loop, a d_step, so no intermediate state is stored and the state
 * vector holds the variables above and one program counter. The options
 * are listed for N <= 4 and R <= 3 (the benchmark's configurations).
 */
#if N > 4 || R > 3
#error "sk.pml lists the actions for N <= 4 and R <= 3 only"
#endif

#define RESET j = 0; k = 0; h = 0; inq = 0
#define CLIENT(i) :: d_step { request(i); RESET } :: d_step { exit(i); RESET } :: d_step { deliverToken(i) }
#if R > 2
#define REQ(f, i) :: d_step { deliverReq(f, i, 1) } :: d_step { deliverReq(f, i, 2) } :: d_step { deliverReq(f, i, 3) }
#elif R > 1
#define REQ(f, i) :: d_step { deliverReq(f, i, 1) } :: d_step { deliverReq(f, i, 2) }
#else
#define REQ(f, i) :: d_step { deliverReq(f, i, 1) }
#endif

active proctype System()
{
	byte j, k, h, inq;
end:
	do
	CLIENT(0)
	CLIENT(1)
	REQ(0, 1)
	REQ(1, 0)
#if N > 2
	CLIENT(2)
	REQ(0, 2)
	REQ(1, 2)
	REQ(2, 0)
	REQ(2, 1)
#endif
#if N > 3
	CLIENT(3)
	REQ(0, 3)
	REQ(1, 3)
	REQ(2, 3)
	REQ(3, 0)
	REQ(3, 1)
	REQ(3, 2)
#endif
	od
}
