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


# -- operations: configuration ------------------------------------------------------------------
def config_flags(f: Any) -> Any:
    """``--config FILE`` and one flag per configuration key (``hostd.config.KEYS``).

    The command receives ``config_path`` and ``flags`` (key -> value, None when not given),
    ready for ``hostd.config.load``; ``serve`` and ``config show`` share them, so a flag means
    the same everywhere and ``config show`` can say which value a flag would override.
    """
    import functools

    from hostd import config

    @functools.wraps(f)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        flags = {name: kwargs.pop(name) for name in config.KEYS}
        if not flags["mdns_interfaces"]:
            flags["mdns_interfaces"] = None  # an empty `multiple` means "not given"
        return f(*args, flags=flags, **kwargs)

    for name, key in reversed(config.KEYS.items()):
        flag = config.flag_name(name)
        help_text = f"{key.help} Overrides the file's {name}."
        if key.type == "boolean":
            option = click.option(f"{flag}/--no-{flag[2:]}", name, default=None, help=help_text)
        elif key.type == "array of strings":
            option = click.option(flag, name, multiple=True, metavar="NAME", help=help_text)
        else:
            kind: Any = {"integer": int, "number": float}.get(key.type, str)
            if name in ("data_dir", "control"):
                kind = click.Path(path_type=Path)
            option = click.option(flag, name, type=kind, default=None, help=help_text)
        wrapper = option(wrapper)
    return click.option("--config", "config_path", default=None,
                        type=click.Path(dir_okay=False, path_type=Path),
                        help="The TOML file to read (default: /etc/tablebox/config.toml "
                             "under systemd, none otherwise).")(wrapper)


def load_config(config_path: Path | None, flags: dict[str, Any]) -> Any:
    """The effective ``hostd.config.Loaded``, or the one-line error and exit status 1."""
    from hostd import config

    try:
        return config.load(config_path, flags)
    except config.ConfigError as e:
        raise _fail(str(e)) from None


@main.group(name="config")
def config_group() -> None:
    """The configuration: what is in effect and where each value came from."""


@config_group.command(name="show")
@config_flags
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def config_show(config_path: Path | None, flags: dict[str, Any], as_json: bool) -> None:
    """Print the effective configuration and the source of every value."""
    loaded = load_config(config_path, flags)
    rows = loaded.describe()
    if as_json:
        click.echo(json.dumps({"file": str(loaded.file) if loaded.file else None,
                               "note": loaded.file_note, "keys": rows},
                              ensure_ascii=False, indent=2))
        return
    click.echo(f"# file: {loaded.file}" if loaded.file else
               f"# file: none ({loaded.file_note or 'give one with --config FILE'})")
    width = max(len(r["key"]) for r in rows)
    for r in rows:
        value = json.dumps(r["value"], ensure_ascii=False)
        origin = f"{r['source']} {r['from']}".strip()
        click.echo(f"{r['key']:<{width}} = {value:<28} # {origin}")


# -- operations: the systemd service ---------------------------------------------------------------
@main.group(name="service")
def service_group() -> None:
    """Install or remove the systemd service (as root)."""


def _run_plan(plan: Any, dry_run: bool) -> None:
    from hostd import service

    try:
        steps = plan()
        if dry_run:
            for step in steps:
                click.echo(f"would {step.text}")
            return
        service.run(steps, lambda text: click.echo(f"- {text}"))
    except service.ServiceError as e:
        raise _fail(str(e)) from None


_root_option = click.option(
    "--root", type=click.Path(file_okay=False, path_type=Path), default=None,
    help="Write under this directory instead of / and skip systemctl (for trying it out).")
_dry_run_option = click.option("--dry-run", is_flag=True, help="Print the steps; change nothing.")


@service_group.command(name="install")
@_root_option
@_dry_run_option
@click.option("--operator", "operators", multiple=True, metavar="USER",
              help="Add USER to the tablebox group (control socket access). Repeatable.")
@click.option("--no-start", is_flag=True, help="Enable the unit but do not (re)start it.")
@click.option("--exec-start", default=None, metavar="COMMAND",
              help="ExecStart= (default: this Python's `tablebox serve`).")
def service_install(root: Path | None, dry_run: bool, operators: tuple[str, ...],
                    no_start: bool, exec_start: str | None) -> None:
    """Create the tablebox user and group, write the unit and a default config, start it."""
    from hostd import service

    _run_plan(lambda: service.plan_install(root, exec_start, operators, start=not no_start),
              dry_run)


@service_group.command(name="uninstall")
@_root_option
@_dry_run_option
@click.option("--purge", is_flag=True,
              help="Also remove the config, the state (every game) and the user and group.")
def service_uninstall(root: Path | None, dry_run: bool, purge: bool) -> None:
    """Stop and disable the service and remove its unit (config and games stay)."""
    from hostd import service

    _run_plan(lambda: service.plan_uninstall(root, purge), dry_run)


@service_group.command(name="unit")
@click.option("--low-port", is_flag=True, help="The variant for a port below 1024.")
@click.option("--exec-start", default=None, metavar="COMMAND")
def service_unit(low_port: bool, exec_start: str | None) -> None:
    """Print the unit file (systemd/tablebox.service is this with the default ExecStart)."""
    from hostd import service

    click.echo(service.render_unit(exec_start or service.DEFAULT_EXEC, low_port), nl=False)


# -- operations: logs ----------------------------------------------------------------------------
@main.command(name="logs")
@click.option("-f", "--follow", is_flag=True, help="Keep printing new events as they come.")
@click.option("--table", default=None, metavar="ID", help="Only events about this table.")
@click.option("--level", type=click.Choice(["debug", "info", "warning", "error"]), default=None,
              help="Only events this severe or worse.")
@click.option("--since", default=None, metavar="TIME",
              help='Only events from TIME on: "10m", "2h", "today", "2025-05-01 18:30".')
@click.option("--json", "as_json", is_flag=True, help="The raw JSON events, one per line.")
@click.option("--file", "log_file", default=None, type=click.Path(dir_okay=False, path_type=Path),
              help="Read this log file instead of the journal or data_dir/tablebox.log.")
@click.option("--config", "config_path", default=None,
              type=click.Path(dir_okay=False, path_type=Path),
              help="The config whose data_dir holds the log file.")
def logs_command(follow: bool, table: str | None, level: str | None, since: str | None,
                 as_json: bool, log_file: Path | None, config_path: Path | None) -> None:
    """Show the daemon's structured log: from the journal when it runs as the systemd
    service, else from the rotated log file. Pretty by default."""
    from hostd import logs, logtail

    try:
        start = logtail.parse_since(since) if since else None
    except ValueError as e:
        raise _fail(str(e)) from None
    wanted = logtail.Filter(table=table, level=level, since=start)
    if log_file is None and logtail.service_in_journal():
        events = logtail.read_journal(follow, start)
    else:
        path = log_file or load_config(config_path, {}).config.log_path
        if not path.exists() and not follow:
            raise _fail(f"no log at {path} (is the daemon running with log_file = true?)")
        events = logtail.read_file(path, follow)
    colors = sys.stdout.isatty()
    try:
        for event in events:
            if wanted.matches(event):
                click.echo(json.dumps(event, ensure_ascii=False) if as_json
                           else logs.render_console(event, colors))
                if follow:
                    sys.stdout.flush()
    except KeyboardInterrupt:
        pass
    except BrokenPipeError:  # `tablebox logs | head`
        sys.stderr.close()


if __name__ == "__main__":
    main()
