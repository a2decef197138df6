#!/usr/bin/env python3
"""`play` and `coach` in a real terminal: each runs in a tmux pane, keys are typed into it
(send-keys) and the screen is read back (capture-pane), as a person would see it; a whole
`play --hints` game ends with the winner and the rating on its last screen.

Usage: check_terminal.py --cli build/bin/martiandice
Exits 0 when every check holds, 1 otherwise, 77 (skipped) without tmux.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import time

SKIP = 77


class Pane:
    """A command in its own tmux server (a private socket), 100 columns by `rows` rows."""

    def __init__(self, socket, command, rows=50):
        self.socket = socket
        self.tmux(["new-session", "-d", "-s", "t", "-x", "100", "-y", str(rows), command])

    def tmux(self, args):
        return subprocess.run(["tmux", "-L", self.socket] + args, check=True,
                              capture_output=True, text=True).stdout

    def type(self, line):
        self.tmux(["send-keys", "-t", "t", "-l", line])
        self.tmux(["send-keys", "-t", "t", "Enter"])

    def screen(self):
        return self.tmux(["capture-pane", "-p", "-t", "t", "-S", "-200"])

    def history(self):
        return self.tmux(["capture-pane", "-p", "-t", "t", "-S", "-"])

    def visible(self):
        """What the terminal shows now, and nothing scrolled away."""
        return self.tmux(["capture-pane", "-p", "-t", "t"])

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


PROMPT = re.compile(r"^Seat 0(?:, take (?P<faces>[a-z ,]+)\?|: stop, or roll the (?P<left>\d+) "
                    r"dic?e? left\?)$", re.M)


def check_whole_game(cli, socket, capture=None):
    """A whole `play --hints` game in a 100x40 terminal, answered as a player would (the first
    legal take; roll on with 7 dice or more, else stop): the winner, the review and the rating
    are on the last screen."""
    pane = Pane(socket, f"{cli} play --seed 11 --hints; echo EXIT=$?; sleep 30", rows=40)
    try:
        answered = 0
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            history = pane.history()
            if "Game over after" in history:
                break
            prompts = list(PROMPT.finditer(history))
            if len(prompts) <= answered:
                time.sleep(0.05)
                continue
            last = prompts[answered]
            if last["faces"]:
                pane.type(re.split(r",| or ", last["faces"])[0].strip())
            else:
                pane.type("roll" if int(last["left"]) >= 7 else "stop")
            answered += 1
        else:
            raise AssertionError(f"the game did not end; the screen:\n{pane.visible()}")
        pane.wait_for("EXIT=0")
        screen = pane.visible()
        if capture:
            with open(capture, "w") as out:
                out.write(screen)
        assert answered >= 5, answered
        assert re.search(r"^Game over after \d+ turns\. Scores: \d+, \d+\. .*(wins|share the win)",
                         screen, re.M), screen
        assert re.search(r"^Review of seat 0 \(you\): \d+ of \d+ decisions? optimal", screen,
                         re.M), screen
        assert re.search(r"^Rating \d+ of 100 \((perfect|master|expert|strong|casual|beginner)\)",
                         screen, re.M), screen
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
        pane.type("stop")  # again: the turn ends, and the log holds it
        pane.wait_for("Seat 1 to roll 13 dice. Scores: 0, 0.")
        pane.type("quit")
        screen = pane.wait_for("EXIT=0")
        assert "Game log (martiandice review --objective win - reviews it):" in screen, screen
        assert "roll 2T 3R 4H 3C 1K take H" in screen, screen
    finally:
        pane.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    parser.add_argument("--capture", help="write the whole game's last screen to this file")
    args = parser.parse_args()
    if shutil.which("tmux") is None:
        print("check_terminal: tmux not found; skipped")
        return SKIP
    cli = os.path.abspath(args.cli)
    socket = f"martiandice-check-{os.getpid()}"
    failures = 0
    checks = (check_play, check_coach,
              lambda cli, socket: check_whole_game(cli, socket, args.capture))
    for check, name in zip(checks, ("check_play", "check_coach", "check_whole_game")):
        try:
            # Each check has its own tmux server.
            check(cli, f"{socket}-{name}")
            print(f"check_terminal: {name}: ok")
        except (AssertionError, subprocess.CalledProcessError) as e:
            failures += 1
            print(f"check_terminal: {name}: FAILED: {e}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
