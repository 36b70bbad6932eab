"""The ``tablebox`` command: the only module that imports click.

Each command parses and checks its arguments, calls into the package that owns the work, and
prints. User errors (bad options, unreadable files, a daemon that is not running) are printed
as one line through ``click.ClickException``, never as a traceback.
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import click

from engine import registry
from engine.catalogue import parse_assignments
from engine.errors import EngineError, OptionError, RecordError


def _fail(message: str) -> click.ClickException:
    return click.ClickException(message)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tablebox")
def main() -> None:
    """tablebox: host card and board game tables on a small box."""


# -- the catalogue ----------------------------------------------------------------------------
@main.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def games(as_json: bool) -> None:
    """List the games in the catalogue, with every option."""
    infos = [g.info.describe() for g in registry.all_games()]
    if as_json:
        click.echo(json.dumps({"games": infos}, ensure_ascii=False, indent=2))
        return
    for info in infos:
        counts = ", ".join(map(str, info["players"]))
        click.echo(f"{info['id']}: {info['title']} (rules {info['rules_version']}; players {counts})")
        click.echo(f"    {info['summary']}")
        click.echo(f"    sides: {info['teams']}")
        for o in info["options"]:
            if o["type"] == "choice":
                allowed = "|".join(o["choices"])
            elif o["type"] == "bool":
                allowed = "true|false"
            else:
                lo, hi = o["minimum"], o["maximum"]
                allowed = f"{'' if lo is None else lo}..{'' if hi is None else hi}"
            click.echo(f"    --opt {o['name']}={o['default']}  [{allowed}]  {o['description']}")


# -- self-play ---------------------------------------------------------------------------------
@main.command()
@click.argument("game")
@click.option("--players", type=int, default=None, help="Number of seats (default: the game's).")
@click.option("--opt", "opts", multiple=True, metavar="KEY=VALUE", help="A table option.")
@click.option("--ai", "ai_levels", default="normal", metavar="LEVEL[,LEVEL...]",
              help="Levels given to seats cyclically.")
@click.option("--games", "count", type=click.IntRange(min=1), default=1)
@click.option("--seed", type=int, default=1)
@click.option("--records", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Write each game's record to this directory.")
@click.option("--json", "as_json", is_flag=True, help="One JSON line per game, then a summary.")
@click.option("--show", is_flag=True, help="Print each game's final public view.")
def selfplay(game: str, players: int | None, opts: tuple[str, ...], ai_levels: str, count: int,
             seed: int, records: Path | None, as_json: bool, show: bool) -> None:
    """Play GAME between computer players."""
    from engine import ai
    from engine.codec import to_data
    from engine.selfplay import play

    levels = [x.strip() for x in ai_levels.split(",") if x.strip()]
    try:
        g = registry.get(game)
        options = parse_assignments(list(opts))
        n = g.info.default_players if players is None else players
        g.validate(n, options)
        for lvl in levels or ["?"]:
            ai.player(game, lvl)
    except EngineError as e:
        raise _fail(str(e)) from None
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    wins: Counter[str] = Counter()
    draws = 0
    unfinished = 0
    started = time.perf_counter()
    for i in range(count):
        game_seed = seed + i
        t0 = time.perf_counter()
        result = play(game, n, options, levels, game_seed)
        seconds = time.perf_counter() - t0
        outcome = result.outcome
        if outcome is None:
            unfinished += 1
        elif outcome.draw or not outcome.winners:
            draws += 1
        for lvl in result.winning_levels():
            wins[lvl] += 1
        path = None
        if records is not None:
            path = records / f"{game}-{game_seed}.json"
            path.write_text(json.dumps(result.record, ensure_ascii=False) + "\n", encoding="utf-8")
        if as_json:
            line = {
                "game": i,
                "seed": game_seed,
                "levels": list(result.levels),
                "outcome": to_data(outcome) if outcome else None,
                "winning_levels": list(result.winning_levels()),
                "steps": len(result.match.steps),
                "seconds": round(seconds, 4),
                "record": str(path) if path else None,
            }
            click.echo(json.dumps(line, ensure_ascii=False))
        else:
            if show:
                click.echo(json.dumps(to_data(result.match.view(None)), ensure_ascii=False))
            desc = "unfinished" if outcome is None else (
                "draw" if outcome.draw else "won by " + ", ".join(
                    f"seat {s} ({result.levels[s]})" for s in outcome.winners))
            click.echo(f"game {i + 1} (seed {game_seed}): {desc}; "
                       f"{len(result.match.steps)} steps in {seconds:.2f}s")
    total = time.perf_counter() - started
    summary = {
        "games": count,
        "wins": {lvl: wins.get(lvl, 0) for lvl in dict.fromkeys(levels)},
        "draws": draws,
        "unfinished": unfinished,
        "seconds": round(total, 3),
    }
    if as_json:
        click.echo(json.dumps({"summary": summary}))
    else:
        click.echo("summary: " + json.dumps(summary))


# -- records -----------------------------------------------------------------------------------
@main.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True)
def replay(file: Path, as_json: bool) -> None:
    """Re-validate a game record; exit 1 at the first illegal step."""
    from engine.records import replay as do_replay

    try:
        record = json.loads(file.read_text(encoding="utf-8"))
    except OSError as e:
        raise _fail(f"cannot read {file}: {e.strerror}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise _fail(f"{file} is not a JSON record: {e}") from None
    try:
        result = do_replay(record)
    except (RecordError, OptionError) as e:
        raise _fail(f"{file}: {e}") from None
    report: dict[str, Any] = result.report()
    if as_json:
        click.echo(json.dumps(report, ensure_ascii=False))
    elif result.error is None:
        click.echo(f"valid: {result.steps} steps" + (
            f"; outcome {report['outcome']}" if report["outcome"] else "; game in progress"))
    else:
        err = result.error
        click.echo(f"invalid: step {err.index}: {err.code}: {err.message}")
    if result.error is not None:
        sys.exit(1)


if __name__ == "__main__":
    main()
