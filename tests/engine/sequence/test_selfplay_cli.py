"""`tablebox selfplay sequence ... --records DIR --json`, then `tablebox replay` on each record.

A small version of the issue's acceptance run, through the real command line (click's runner),
into pytest's temporary directory.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from hostd.cli import main


def test_selfplay_records_replay_as_valid(tmp_path: Path) -> None:
    runner = CliRunner()
    out = runner.invoke(main, ["selfplay", "sequence", "--players", "4", "--ai", "hard,normal",
                               "--games", "2", "--seed", "1", "--records", str(tmp_path),
                               "--json"])
    assert out.exit_code == 0, out.output
    lines = [json.loads(x) for x in out.output.splitlines()]
    games, summary = lines[:-1], lines[-1]["summary"]
    assert summary["games"] == 2 and summary["unfinished"] == 0
    assert sum(summary["wins"].values()) + summary["draws"] == 2
    records = sorted(tmp_path.glob("sequence-*.json"))
    assert [Path(g["record"]).name for g in games] == [p.name for p in records]
    for g, path in zip(games, records, strict=True):
        assert g["levels"] == ["hard", "normal", "hard", "normal"]
        report = runner.invoke(main, ["replay", str(path), "--json"])
        assert report.exit_code == 0, report.output
        data = json.loads(report.output)
        assert data["valid"] and data["error"] is None
        assert data["outcome"] == g["outcome"] and data["to_act"] == []
        assert data["steps"] == g["steps"] == len(json.loads(path.read_text())["steps"])


def test_a_tampered_record_is_reported_at_its_first_bad_step(tmp_path: Path) -> None:
    runner = CliRunner()
    out = runner.invoke(main, ["selfplay", "sequence", "--ai", "normal", "--games", "1",
                               "--records", str(tmp_path), "--json"])
    assert out.exit_code == 0, out.output
    (path,) = tmp_path.glob("sequence-*.json")
    record = json.loads(path.read_text())
    index = next(i for i, s in enumerate(record["steps"]) if "action" in s)
    step = record["steps"][index]
    step["seat"] = 1 - step["seat"]  # the other seat moves out of turn
    path.write_text(json.dumps(record))
    report = runner.invoke(main, ["replay", str(path), "--json"])
    assert report.exit_code == 1
    data = json.loads(report.output)
    assert not data["valid"] and data["error"]["index"] == index
    assert data["error"]["code"] == "not_your_turn"


def test_plain_output_reads_as_words_not_data(tmp_path: Path) -> None:
    """Without --json, selfplay's view, its summary and replay's outcome are lines a person
    reads: no Python dict, no JSON object."""
    runner = CliRunner()
    out = runner.invoke(main, ["selfplay", "euchre", "--games", "1", "--seed", "3", "--show",
                               "--records", str(tmp_path)])
    assert out.exit_code == 0, out.output
    assert "{" not in out.output and "'" not in out.output, out.output
    assert "  score: " in out.output and "summary: 1 games in " in out.output
    record = next(tmp_path.glob("euchre-*.json"))
    report = runner.invoke(main, ["replay", str(record)])
    assert report.exit_code == 0, report.output
    assert report.output.startswith("valid: ") and "won by seat" in report.output
    assert "{" not in report.output and "euchre.reached_target" in report.output
