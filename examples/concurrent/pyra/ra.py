#!/usr/bin/env python3
"""Ricart and Agrawala's mutual exclusion over TCP on 127.0.0.1, in
Python's standard library only: per node a listening socket, a reader
thread per incoming connection, and the application's thread, which
asks for the lock, polls until every node has replied, and releases it.
Each node's state is guarded by the node's own lock, which is never held
while sending.

It writes the event log tokenmc reads (docs/eventlog.md), with the Log
class of that page, and tokenmc checks the run against its
ricart-agrawala model:

    python3 examples/concurrent/pyra/ra.py --n 3 --rounds 10 --log ra.jsonl
    tokenmc validate ra.jsonl

--bug nomax plants a bug, which validate rejects at the first request
numbered differently from the algorithm's rule.
"""
import argparse
import json
import random
import socket
import sys
import threading
import time


class Log:
    """The event log: docs/eventlog.md, "Writing logs from other languages"."""

    def __init__(self, path, algorithm, n, r):
        self.f, self.lock, self.t0 = open(path, "w"), threading.Lock(), time.monotonic_ns()
        self.vc, self.sent = [[0] * n for _ in range(n)], [0] * n
        self.f.write(json.dumps({"format": "tokenmc-eventlog", "version": 1, "algorithm": algorithm,
                                 "params": {"n": n, "r": r}, "clock": "global"}) + "\n")

    def _event(self, p, kind, **kw):  # the caller holds self.lock
        self.vc[p][p] += 1
        self.f.write(json.dumps(dict(p=p, seq=self.vc[p][p], kind=kind, vc=self.vc[p],
                                     t_ns=time.monotonic_ns() - self.t0, **kw)) + "\n")

    def event(self, p, kind):  # request, enter, exit
        with self.lock:
            self._event(p, kind)

    def send(self, p, to, msg):  # returns the stamp the message carries
        with self.lock:
            self.sent[p] += 1
            mid = f"{p}.{self.sent[p]}"
            self._event(p, "send", to=to, msg=msg, mid=mid)
            return mid, p, list(self.vc[p])

    def receive(self, p, stamp, msg):
        mid, sender, carried = stamp
        with self.lock:
            self.vc[p] = [max(a, b) for a, b in zip(self.vc[p], carried)]
            self._event(p, "receive", msg=msg, mid=mid, **{"from": sender})

    def close(self):
        with self.lock:
            self.f.close()


def rendering(kind, frm, to, sn):
    """The message as tokenmc's model renders it."""
    if kind == "REPLY":
        return f"REPLY(P{frm}->P{to})"
    return f"REQUEST(P{frm}->P{to}, sn={sn})"


class Node:
    def __init__(self, i, n, log, rng, max_delay, nomax=False):
        self.id, self.n, self.log, self.rng, self.max_delay = i, n, log, rng, max_delay
        self.nomax = nomax    # the planted bug: forget the highest number seen
        self.rng_lock = threading.Lock()  # the delays' generator is shared by the node's threads
        self.lock = threading.Lock()  # guards the algorithm's state below
        self.our_seq = 0      # number of the current request; 0 when idle
        self.highest = 0      # highest request number seen
        self.outstanding = 0  # replies still awaited
        self.deferred = []    # nodes whose request awaits our reply
        self.phase = "idle"   # idle, waiting, granted (every reply in), cs
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(n)
        self.out = {}         # peer -> (socket, its write lock)
        self.readers = []

    def port(self):
        return self.server.getsockname()[1]

    def connect(self, ports):
        for j, port in enumerate(ports):
            if j != self.id:
                self.out[j] = (socket.create_connection(("127.0.0.1", port)), threading.Lock())

    def accept(self):
        for _ in range(self.n - 1):
            conn, _ = self.server.accept()
            t = threading.Thread(target=self.read, args=(conn,), daemon=True)
            t.start()
            self.readers.append(t)

    def send(self, to, kind, sn=0):
        msg = rendering(kind, self.id, to, sn)
        stamp = self.log.send(self.id, to, msg)
        with self.rng_lock:
            delay = self.rng.random() * self.max_delay
        time.sleep(delay)
        line = json.dumps({"kind": kind, "from": self.id, "sn": sn, "stamp": stamp}) + "\n"
        sock, wlock = self.out[to]
        with wlock:
            sock.sendall(line.encode())

    def read(self, conn):
        buf = b""
        while True:
            data = conn.recv(4096)
            if not data:
                return
            buf += data
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                self.handle(json.loads(line))

    def handle(self, m):
        j, sn = m["from"], m["sn"]
        reply = False
        with self.lock:
            self.log.receive(self.id, tuple(m["stamp"]), rendering(m["kind"], j, self.id, sn))
            if m["kind"] == "REPLY":
                self.outstanding -= 1
                if self.outstanding == 0:
                    self.phase = "granted"
            else:
                if not self.nomax:
                    self.highest = max(self.highest, sn)
                later = sn > self.our_seq or (sn == self.our_seq and j > self.id)
                if self.phase != "idle" and later:
                    self.deferred.append(j)
                else:
                    reply = True
        if reply:
            self.send(j, "REPLY")

    def acquire(self, poll):
        with self.lock:
            self.log.event(self.id, "request")
            self.our_seq = self.highest + 1
            self.outstanding = self.n - 1
            self.phase = "waiting"
            sn = self.our_seq
        for j in range(self.n):
            if j != self.id:
                self.send(j, "REQUEST", sn)
        while True:
            with self.lock:
                if self.phase == "granted":
                    self.phase = "cs"
                    break
            time.sleep(poll)
        self.log.event(self.id, "enter")

    def release(self):
        with self.lock:
            self.log.event(self.id, "exit")
            deferred, self.deferred = sorted(self.deferred), []
            self.our_seq = 0
            self.phase = "idle"
        for j in deferred:
            self.send(j, "REPLY")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=3, help="number of nodes (2..16)")
    ap.add_argument("--rounds", type=int, default=10, help="critical sections per node")
    ap.add_argument("--seed", type=int, default=1, help="seed of the delays")
    ap.add_argument("--max-delay", type=float, default=0.0005, help="largest delay before a send, in seconds")
    ap.add_argument("--log", default="ra.jsonl", help="write the event log to FILE")
    ap.add_argument("--bug", choices=["nomax"], help="plant a bug: nomax (a node does not keep the highest request number it has seen, so it numbers every request 1)")
    args = ap.parse_args()
    if not 2 <= args.n <= 16 or args.rounds < 1:
        print("ra.py: --n must be in 2..16 and --rounds at least 1", file=sys.stderr)
        sys.exit(2)
    log = Log(args.log, "ricart-agrawala", args.n, args.rounds)
    nodes = []
    for i in range(args.n):
        nodes.append(Node(i, args.n, log, random.Random(args.seed * 1000 + i), args.max_delay, args.bug == "nomax"))
    acceptors = [threading.Thread(target=nd.accept) for nd in nodes]
    for t in acceptors:
        t.start()
    ports = [nd.port() for nd in nodes]
    for nd in nodes:
        nd.connect(ports)
    for t in acceptors:
        t.join()

    def client(nd):
        rng = random.Random(args.seed * 1000 + 100 + nd.id)
        for _ in range(args.rounds):
            time.sleep(rng.random() * args.max_delay)
            nd.acquire(args.max_delay / 10)
            time.sleep(rng.random() * args.max_delay)
            nd.release()

    clients = [threading.Thread(target=client, args=(nd,)) for nd in nodes]
    for t in clients:
        t.start()
    for t in clients:
        t.join()
    for nd in nodes:
        for sock, _ in nd.out.values():
            sock.shutdown(socket.SHUT_WR)
    for nd in nodes:
        for t in nd.readers:
            t.join()
    log.close()
    print(f"ra.py: {args.n} nodes, {args.n * args.rounds} critical sections; log written to {args.log}")


if __name__ == "__main__":
    main()
