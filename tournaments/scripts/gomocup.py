# A brain behind a pipe, spoken to through the Gomocup protocol: what
# balance.py, label.py, mates.py, movequality.py and nodes2depth.py share (the rule numbers, the
# "MESSAGE depth D-S ev V" line, sending, reading with a timeout, settling a
# brain that drops commands just after its move).
import os
import re
import select
import subprocess
import sys

RULES = {"freestyle": 0, "standard": 1, "renju": 4}

EV = re.compile(r"MESSAGE depth \S+ ev ([-+]?M?[-+]?\d+)")


class Brain:
    """A brain behind a pipe: lines out, lines in with a timeout."""

    def __init__(self, argv, cwd=None, env=None, name="brain"):
        self.p = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                  bufsize=1)
        self.fd, self.pending, self.name = self.p.stdout.fileno(), b"", name

    def send(self, text):
        self.p.stdin.write(text + "\n")
        self.p.stdin.flush()

    def readline(self, timeout=None):
        """One line from the brain, or None after `timeout` seconds."""
        while b"\n" not in self.pending:
            ready, _, _ = select.select([self.fd], [], [], timeout)
            if not ready:
                return None
            chunk = os.read(self.fd, 65536)
            if not chunk:
                sys.exit(f"{self.name}: the brain closed its output")
            self.pending += chunk
        line, self.pending = self.pending.split(b"\n", 1)
        return line.decode(errors="replace").strip()

    def reply(self):
        """The next answer line, and the last "ev" value printed before it."""
        ev = None
        while True:
            line = self.readline()
            m = EV.match(line)
            if m:
                ev = m.group(1)
            elif line and not line.startswith(("MESSAGE", "DEBUG", "name=")):
                return line, ev  # (name=: a late answer to settle's ABOUT)

    def settle(self):
        """Rapfi drops commands that come while it still counts itself
        thinking, just after its move: ABOUT until it answers (10 s at most)."""
        for _ in range(200):
            self.send("ABOUT")
            line = self.readline(0.05)
            while line is not None and not line.startswith("name="):
                line = self.readline(0.05)
            if line is not None:
                return
        sys.exit(f"{self.name}: the brain does not answer ABOUT")

    def board(self, cells):
        """BOARD with the side to move owning the stones an even number of plies before it."""
        self.send("BOARD")
        n = len(cells)
        for i, c in enumerate(cells):
            self.send(f"{c},{1 if (n - i) % 2 == 0 else 2}")
        self.send("DONE")

    def start(self, size, infos):
        self.send(f"START {size}")
        ok, _ = self.reply()
        if ok != "OK":
            sys.exit(f"{self.name}: START answered {ok!r}")
        for key, value in infos:
            self.send(f"INFO {key} {value}")

    def end(self):
        self.send("END")
        self.p.wait(timeout=10)
