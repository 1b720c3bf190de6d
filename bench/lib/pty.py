#!/usr/bin/env python3
"""Runs a command in a pseudo-terminal and timestamps everything it writes.

The benchmarks need to know *when* bytes reach the terminal, to the tenth of a millisecond,
which polling `tmux capture-pane` cannot tell. This helper owns the pty's master side:

  python3 pty.py COLS ROWS -- CMD [ARGS...]

stdout (one JSON object per line, times in ms on CLOCK_MONOTONIC, the clock Node's
`process.hrtime` reads, so both processes can compare timestamps):
  {"spawn": T, "pid": PID}           just before the fork
  {"t": T, "o": "<base64 bytes>"}    output from the program, as read
  {"t": T, "sent": ID}               keys written to the terminal (T: just before the write)
  {"t": T, "exit": CODE}             the program ended (negative: killed by that signal)
stdin (one JSON object per line):
  {"keys": "<text>", "id": ID}       write these keys to the terminal
  {"signal": N}                      send signal N to the program
  end of file                        the driver is gone: SIGHUP to the program's process
                                     group, SIGKILL 5 s later if it still runs
"""
import base64
import fcntl
import json
import os
import select
import signal
import struct
import sys
import termios
import time


# After a hang-up, how long the program has to end before it is killed.
HANGUP_GRACE_MS = 5000


def now_ms():
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC) / 1e6


def emit(obj):
    data = (json.dumps(obj) + "\n").encode()
    view = memoryview(data)
    while view:
        try:
            n = os.write(1, view)
            view = view[n:]
        except BlockingIOError:
            select.select([], [1], [])


def main():
    cols, rows = int(sys.argv[1]), int(sys.argv[2])
    cmd = sys.argv[sys.argv.index("--") + 1:]
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    spawn = now_ms()
    pid = os.fork()
    if pid == 0:
        os.close(master)
        os.setsid()
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
        for fd in (0, 1, 2):
            os.dup2(slave, fd)
        if slave > 2:
            os.close(slave)
        try:
            os.execvp(cmd[0], cmd)
        finally:
            os._exit(127)
    os.close(slave)
    emit({"spawn": spawn, "pid": pid})
    stdin_open = True
    hangup_at = None
    pending = b""
    exit_code = None
    while True:
        watch = [master] + ([0] if stdin_open else [])
        readable, _, _ = select.select(watch, [], [], 0.05)
        if master in readable:
            try:
                data = os.read(master, 65536)
            except OSError:
                data = b""
            t = now_ms()
            if data:
                emit({"t": t, "o": base64.b64encode(data).decode()})
            else:
                break
        if 0 in readable:
            chunk = os.read(0, 65536)
            if not chunk:
                stdin_open = False
                if exit_code is None and hangup_at is None:
                    # The benchmark driving this terminal is gone (ended or died) while the
                    # program runs: hang up, as a closed terminal window does. An idle program
                    # writes nothing, so nothing here would ever meet the broken pipe, and it
                    # (with a background agent it attached to) ran on unattended.
                    hangup_at = now_ms()
                    try:
                        os.killpg(pid, signal.SIGHUP)
                    except ProcessLookupError:
                        pass
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                if not line.strip():
                    continue
                msg = json.loads(line)
                if "keys" in msg:
                    t = now_ms()
                    os.write(master, msg["keys"].encode())
                    emit({"t": t, "sent": msg.get("id")})
                elif "signal" in msg:
                    try:
                        os.kill(pid, int(msg["signal"]))
                    except ProcessLookupError:
                        pass
        if hangup_at is not None and now_ms() - hangup_at > HANGUP_GRACE_MS:
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            hangup_at = None
        if exit_code is None:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                exit_code = os.waitstatus_to_exitcode(status)
                # Drain what is left, then report.
                while select.select([master], [], [], 0.05)[0]:
                    try:
                        data = os.read(master, 65536)
                    except OSError:
                        break
                    if not data:
                        break
                    emit({"t": now_ms(), "o": base64.b64encode(data).decode()})
                break
    if exit_code is None:
        _, status = os.waitpid(pid, 0)
        exit_code = os.waitstatus_to_exitcode(status)
    emit({"t": now_ms(), "exit": exit_code})


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    main()
