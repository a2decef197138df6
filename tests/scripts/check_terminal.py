#!/usr/bin/env python3
"""`play` and `coach` in a real terminal: each runs in a tmux pane, keys are typed into it
(send-keys) and the screen is read back (capture-pane), as a person would see it.

Usage: check_terminal.py --cli build/bin/martiandice
Exits 0 when every check holds, 1 otherwise, 77 (skipped) without tmux.
"""
import argparse
import os
import shutil
import subprocess
import sys
import time

SKIP = 77


class Pane:
    """A command in its own tmux server (a private socket), 100 columns by 50 rows."""

    def __init__(self, socket, command):
        self.socket = socket
        self.tmux(["new-session", "-d", "-s", "t", "-x", "100", "-y", "50", command])

    def tmux(self, args):
        return subprocess.run(["tmux", "-L", self.socket] + args, check=True,
                              capture_output=True, text=True).stdout

    def type(self, line):
        self.tmux(["send-keys", "-t", "t", "-l", line])
        self.tmux(["send-keys", "-t", "t", "Enter"])

    def screen(self):
        return self.tmux(["capture-pane", "-p", "-t", "t", "-S", "-200"])

    def wait_for(self, text, seconds=20):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.05)
        raise AssertionError(f"never shown: {text!r}; the screen:\n{self.screen()}")

    def close(self):
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)


def check_play(cli, socket):
    pane = Pane(socket, f"{cli} play --seed 3 --hints; echo EXIT=$?; sleep 30")
    try:
        pane.wait_for("Seat 0, take ray, human or chicken?")
        pane.type("take zebra")
        pane.wait_for("Refused: ")
        pane.type("humans")
        pane.wait_for("Seat 0 takes 3 humans: set aside 1T 3H, 9 dice left")
        pane.wait_for("Seat 0: stop, or roll the 9 dice left?")
        pane.type("quit")
        screen = pane.wait_for("EXIT=4")
        assert "Quit in turn 1" in screen, screen
        # The table of hints came before the first prompt.
        assert "  Best: take 4 chickens, then roll on." in screen, screen
    finally:
        pane.close()


def check_coach(cli, socket):
    pane = Pane(socket, f"{cli} coach; echo EXIT=$?; sleep 30")
    try:
        pane.wait_for("Seat 0 to roll 13 dice. Scores: 0, 0.")
        pane.type("roll 2T 3R 4H 3C 1K")
        pane.wait_for("  Best: take 4 humans, then roll on.")
        pane.type("take tanks")
        pane.wait_for("Refused: tanks are set aside automatically")
        pane.type("take humans")
        pane.wait_for("Rolling on ends the turn with 0 points with chance")
        pane.type("stop")
        pane.wait_for("Seat 1 to roll 13 dice. Scores: 0, 0.")
        pane.type("undo")
        pane.wait_for("Undone: stop.")
        pane.type("quit")
        screen = pane.wait_for("EXIT=0")
        assert "Game log (martiandice review" in screen, screen
    finally:
        pane.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    args = parser.parse_args()
    if shutil.which("tmux") is None:
        print("check_terminal: tmux not found; skipped")
        return SKIP
    cli = os.path.abspath(args.cli)
    socket = f"martiandice-check-{os.getpid()}"
    failures = 0
    for check in (check_play, check_coach):
        try:
            # Each check has its own tmux server.
            check(cli, f"{socket}-{check.__name__}")
            print(f"check_terminal: {check.__name__}: ok")
        except (AssertionError, subprocess.CalledProcessError) as e:
            failures += 1
            print(f"check_terminal: {check.__name__}: FAILED: {e}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
