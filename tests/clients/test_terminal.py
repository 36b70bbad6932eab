"""The terminal client, driven as a person would: through its stdin and stdout.

The "done when" of the daemon issue, automated: a fresh data directory, ``tablebox serve``,
``tablebox tables new euchre``, then ``tablebox play`` with three computer players and one
person (this test, typing numbers at the prompts) playing a game to the end.
"""

from __future__ import annotations

import io
import os
import random
import re
import select
import signal
import subprocess
import sys
import time

from clients.terminal import Screen
from engine import registry
from engine.codec import to_data
from engine.match import Match
from hostd.control import request
from hostd.protocol.messages import SeatSummary, State
from tests.hostd.helpers import ROOT, short_dir, start_process

# \Z, not $: a read can end just after the newline that follows a prompt already answered,
# and $ matches before a final newline (answering twice, the spare line is refused later).
PROMPT = re.compile(rb"your move \[1-(\d+)\][^:]*: \Z")


def drive(player: subprocess.Popen[bytes]) -> tuple[bytes, int]:
    """Answer each prompt with a random number from the menu; quit at the end."""
    assert player.stdin is not None and player.stdout is not None
    rng = random.Random(5)
    out = b""
    moves = 0
    deadline = time.monotonic() + 240  # a cap for a loaded 2-core CI machine; seconds normally
    while time.monotonic() < deadline:
        ready, _, _ = select.select([player.stdout], [], [], 1.0)
        if not ready:
            continue
        chunk = os.read(player.stdout.fileno(), 65536)
        if not chunk:
            break
        out += chunk
        if b"type r for a rematch" in out[-200:]:
            player.stdin.write(b"q\n")
            player.stdin.flush()
            continue
        prompt = PROMPT.search(out[-300:])
        if prompt:
            if moves == 0:
                player.stdin.write(b"99\n")  # not on the menu: asked again
            player.stdin.write(f"{rng.randint(1, int(prompt.group(1)))}\n".encode())
            player.stdin.flush()
            moves += 1
    return out, moves


def tablebox(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tablebox", *args], cwd=ROOT, text=True,
                          capture_output=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_a_person_plays_euchre_against_three_ais_in_the_terminal() -> None:
    tmp = short_dir()
    d = start_process(tmp / "data", tmp / "c.sock")  # default AI workers: a process pool
    try:
        made = tablebox("tables", "new", "euchre", "--ai", "random", "--control", str(d.control))
        assert made.returncode == 0, made.stderr
        code = re.search(r"join code (\w{4})", made.stdout)
        assert code, made.stdout
        with subprocess.Popen(
                [sys.executable, "-m", "tablebox", "play", "--port", str(d.tcp_port),
                 "--code", code.group(1), "--name", "Pat"],
                cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"},
        ) as player:
            out, moves = drive(player)
            assert player.wait(10) == 0, out[-2000:].decode(errors="replace")
        text = out.decode("utf-8")
        assert "you sit at seat 0" in text and "game over" in text, text[-2000:]
        assert "type a number from 1 to" in text
        assert moves >= 5
        # The common part in words, told from this seat's side: the status lines, each seat's
        # badges and its bid at its feet, and the result between hands.
        assert "  Trump: " in text and "  Tricks: Us " in text and "Score (game to 10): Us" in text
        assert re.search(r"^ . .+? \((you, )?dealer\)", text, re.M), text[:3000]
        assert re.search(r"\d cards  \[(pass|order up|picks it up)", text), text[:3000]
        assert "last: " in text
        shown = request(d.control, "tables.show", table="1")
        assert shown["status"] == "finished"
        assert [s["controller"] for s in shown["seats"]] == ["human", "ai", "ai", "ai"]
    finally:
        d.kill()


def test_screen_formats_any_view_generically() -> None:
    out = io.StringIO()
    screen = Screen(out, symbols=True)
    assert screen.action({"type": "play_card", "card": "TH"}) == "play card: 10♥"
    assert screen.value(["AS", "2C"]) == "[A♠ 2♣]"
    assert screen.value({"type": "trick", "lead": 1, "cards": []}) == "(lead 1 cards -)"
    lines = screen.view_lines({"type": "v", "board": [["AS"] * 10] * 10, "score": [1, 2]})
    assert lines[0].startswith("  board:\n") and lines[0].count("\n") == 10
    assert lines[-1] == "  score: [1 2]"
    # A field is printed again only when it changed: options do not repeat on every move.
    assert screen.view_lines({"type": "v", "board": [["AS"] * 10] * 10, "score": [1, 3]}) == [
        "  score: [1 3]"]
    plain = Screen(out, symbols=False)
    assert plain.value("KD") == "KD"


def test_screen_speaks_the_games_words() -> None:
    out = io.StringIO()
    screen = Screen(out, symbols=True)
    screen.use_game("euchre")
    # The game's one catalogue (clients/strings/euchre): an engine key, in words.
    assert screen.value("euchre.result.made") == "Made it."
    assert screen.label("going_alone") == "going alone"
    assert screen.action({"type": "play", "card": "QD"}) == "Play: Q♦"


def test_screen_says_the_result_between_hands_and_each_seats_badges() -> None:
    """What the common part says (engine/euchre/rules.py ``common``), in the terminal's words:
    the hand just over as a block, and each seat's badges beside its name."""
    game = registry.get("euchre")
    m = Match.start(game, 4, {}, 2)
    rng = random.Random(4)
    while m.view(None).phase != "hand_over":
        if not m.to_act():
            m.resolve_chance()
            continue
        seat = m.to_act()[0]
        legal = m.legal(seat)
        m.act(seat, legal[rng.randrange(len(legal))])
    view = m.view(None)
    seats = [SeatSummary(s, f"P{s}", "ai", "random", True, False, s % 2) for s in range(4)]
    state = State(table="1", game="euchre", version=1, seat=None, view=to_data(view), legal=[],
                  to_act=[], seats=seats, name="Euchre", code="ABCD",
                  common=to_data(game.common(view)))
    out = io.StringIO()
    screen = Screen(out, symbols=True)
    screen.state(state, None)
    text = out.getvalue()
    last = view.last_hand
    assert last is not None
    assert f"  Hand {last.hand} over\n" in text
    assert f"  {screen.t(last.result)}\n" in text
    assert f"P{last.dealer} (dealer)" in text
    if last.maker is not None:
        assert f"  P{last.maker} made " in text, text
    assert "  Tricks: Seats 1 & 3 " in text  # a spectator has no "us"


def test_ctrl_c_ends_cleanly() -> None:
    tmp = short_dir()
    d = start_process(tmp / "data", tmp / "c.sock")
    try:
        made = tablebox("tables", "new", "euchre", "--ai", "random", "--control", str(d.control))
        assert made.returncode == 0, made.stderr
        code = re.search(r"join code (\w{4})", made.stdout)
        assert code, made.stdout
        with subprocess.Popen(
                [sys.executable, "-m", "tablebox", "play", "--port", str(d.tcp_port),
                 "--code", code.group(1), "--name", "Pat"],
                cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"},
                # A person's shell starts a program with Ctrl-C at its default; a child of
                # this test process must too (Python keeps an inherited "ignore" and then
                # never sees Ctrl-C at all).
                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        ) as player:
            assert player.stdout is not None
            out = b""
            deadline = time.monotonic() + 30
            # Mid-game, at the move prompt: where trio hands Ctrl-C back inside a group.
            while b"your move" not in out and time.monotonic() < deadline:
                ready, _, _ = select.select([player.stdout], [], [], 1.0)
                if ready:
                    out += os.read(player.stdout.fileno(), 65536)
            assert b"your move" in out, out
            player.send_signal(signal.SIGINT)
            # Wait with stdin still open: communicate() would close it, and an end of input
            # that the client reads before trio delivers the signal is a clean quit (exit 0).
            player.wait(timeout=20)
            rest = player.stdout.read()
            text = (out + rest).decode("utf-8")
            assert player.returncode == 130, text
            assert "Traceback" not in text and "KeyboardInterrupt" not in text, text
            assert text.rstrip().endswith("if you do not come back)")
    finally:
        d.kill()


def _played_until(game_id: str, players: int, options: dict[str, object], seed: int,
                  done: object) -> Match:
    m = Match.start(registry.get(game_id), players, options, seed)
    rng = random.Random(seed)
    for _ in range(5000):
        if done(m):  # type: ignore[operator]
            return m
        if not m.to_act():
            m.resolve_chance()
            continue
        seat = m.to_act()[0]
        legal = m.legal(seat)
        m.act(seat, legal[rng.randrange(len(legal))])
    raise AssertionError("never reached")


def _said(game_id: str, m: Match, seat: int | None) -> str:
    game = registry.get(game_id)
    view = m.view(seat)
    seats = [SeatSummary(s, f"P{s}", "ai", "random", True, False, t)
             for s, t in enumerate(m.teams())]
    state = State(table="1", game=game_id, version=1, seat=seat, view=to_data(view), legal=[],
                  to_act=list(m.to_act()), seats=seats, name=game.info.title, code="ABCD",
                  common=to_data(game.common(view)))
    out = io.StringIO()
    screen = Screen(out, symbols=True)
    screen.state(state, seat)
    return out.getvalue()


def test_screen_says_wizards_score_sheet_between_rounds() -> None:
    """The common part's score sheet (engine/wizard/views.py), read out between rounds: the
    title, the heads with the seats' names, a line per round and the totals."""
    m = _played_until("wizard", 3, {}, 3, lambda m: m.view(None).phase == "round_over"
                      and len(m.view(None).sheet) == 2)
    text = _said("wizard", m, None)
    sheet = m.view(None).sheet
    assert "  Score sheet:\n    Rd | P0 | P1 | P2\n" in text
    for r in sheet:
        cells = [f"{r.bids[s]}/{r.taken[s]} {'+' if r.points[s] > 0 else ''}{r.points[s]} "
                 f"{r.totals[s]}" for s in range(3)]
        assert f"    {r.round} | {' | '.join(cells)}\n" in text
    assert f"    Total | {' | '.join(map(str, sheet[-1].totals))}\n" in text


def test_screen_says_each_sequence_teams_standing() -> None:
    m = _played_until("sequence", 2, {"sequences_to_win": 2}, 5,
                      lambda m: any(m.view(None).score))
    score = m.view(None).score
    text = _said("sequence", m, 0)
    assert (f"  score: P0 {score[0]} ({score[0]} of 2 sequences) · "
            f"P1 {score[1]} ({score[1]} of 2 sequences)\n") in text
