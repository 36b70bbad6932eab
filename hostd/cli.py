"""The ``tablebox`` command: the only module that imports click.

Each command parses and checks its arguments, calls into the package that owns the work, and
prints. User errors (bad options, unreadable files, a daemon that is not running) are printed
as one line through ``click.ClickException``, never as a traceback.
"""

from __future__ import annotations

import errno
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from engine import registry
from engine.catalogue import parse_assignments
from engine.errors import EngineError, OptionError, RecordError

if TYPE_CHECKING:  # imported where used: `tablebox --help` stays quick
    from hostd.config import Config, Loaded
    from hostd.datadir import Claim


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
    points: dict[str, list[int]] = {}  # level -> every final score a seat of it had
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
        if outcome is not None:
            for seat, score in enumerate(outcome.scores):
                points.setdefault(result.levels[seat], []).append(score)
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
                for field, value in to_data(result.match.view(None)).items():
                    if field != "type":
                        click.echo(f"  {field.replace('_', ' ')}: {_plain(value)}")
            desc = "unfinished" if outcome is None else (
                "draw" if outcome.draw else "won by " + ", ".join(
                    f"seat {s} ({result.levels[s]})" for s in outcome.winners))
            click.echo(f"game {i + 1} (seed {game_seed}): {desc}; "
                       f"{len(result.match.steps)} steps in {seconds:.2f}s")
    total = time.perf_counter() - started
    win_counts = {lvl: wins.get(lvl, 0) for lvl in dict.fromkeys(levels)}
    # mean final score of a seat of each level: the figure for games scored by points
    mean_scores = {lvl: round(sum(v) / len(v), 3) for lvl, v in points.items()}
    summary = {"games": count, "wins": win_counts, "draws": draws, "mean_scores": mean_scores,
               "unfinished": unfinished, "seconds": round(total, 3)}
    if as_json:
        click.echo(json.dumps({"summary": summary}))
    else:
        wins_text = ", ".join(f"{lvl} {n}" for lvl, n in win_counts.items())
        means = ", ".join(f"{lvl} {v}" for lvl, v in mean_scores.items())
        click.echo(f"summary: {count} games in {round(total, 3)} s; wins: {wins_text}; "
                   f"draws {draws}; unfinished {unfinished}"
                   + (f"; mean final score: {means}" if means else ""))


def _plain(value: Any) -> str:
    """A view value as a person reads it: lists space-separated, records as name=value."""
    if isinstance(value, list):
        return " ".join(_plain(v) for v in value) if value else "-"
    if isinstance(value, dict):
        return "(" + " ".join(f"{k}={_plain(v)}" for k, v in value.items() if k != "type") + ")"
    if value is None:
        return "-"
    return str(value).lower() if isinstance(value, bool) else str(value)


def _outcome_text(outcome: dict[str, Any]) -> str:
    """``{winners, scores, reason, draw}`` as one line."""
    if outcome.get("draw") or not outcome.get("winners"):
        who = "a draw"
    else:
        who = "won by seat " + ", ".join(str(s) for s in outcome["winners"])
    scores = ", ".join(str(s) for s in outcome.get("scores", []))
    return f"{who} (scores {scores}; {outcome.get('reason', '')})"


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
        click.echo(f"valid: {result.steps} steps; " + (
            _outcome_text(report["outcome"]) if report["outcome"] else "game in progress"))
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
            if name in ("data_dir", "control", "releases_dir"):
                kind = click.Path(path_type=Path)
            option = click.option(flag, name, type=kind, default=None, help=help_text)
        wrapper = option(wrapper)
    return click.option("--config", "config_path", default=None,
                        type=click.Path(dir_okay=False, path_type=Path),
                        help="The TOML file to read (default: /etc/tablebox/config.toml "
                             "under systemd, none otherwise).")(wrapper)


def load_config(config_path: Path | None, flags: dict[str, Any], operator: bool = False) -> Any:
    """The effective ``hostd.config.Loaded``, or the one-line error and exit status 1.

    ``operator``: for a command that inspects the box (not ``serve``): with no file named
    and the service installed, the service's own configuration and directories.
    """
    from hostd import config

    try:
        return (config.load_for_operator if operator else config.load)(config_path, flags)
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
    loaded = load_config(config_path, flags, operator=True)
    rows = loaded.describe()
    if as_json:
        click.echo(json.dumps({"file": str(loaded.file) if loaded.file else None,
                               "note": loaded.file_note, "service": loaded.service_view,
                               "keys": rows},
                              ensure_ascii=False, indent=2))
        return
    if loaded.service_view:
        click.echo("# as the installed service sees it (--config FILE for another file)")
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
@click.option("--no-updates", is_flag=True,
              help="Do not install the updater's unit, daily timer and polkit rule.")
def service_install(root: Path | None, dry_run: bool, operators: tuple[str, ...],
                    no_start: bool, exec_start: str | None, no_updates: bool) -> None:
    """Create the tablebox user and group, write the unit and a default config, start it;
    install the updater's unit and daily timer beside it."""
    from hostd import service

    _run_plan(lambda: service.plan_install(root, exec_start, operators, start=not no_start,
                                           updates=not no_updates),
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
        path = log_file or load_config(config_path, {}, operator=True).config.log_path
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



# -- the daemon ----------------------------------------------------------------------------------
@main.command()
@config_flags
@click.option("--data", "data_alias", default=None, type=click.Path(file_okay=False, path_type=Path),
              help="Same as --data-dir.")
@click.option("--ai-processes", type=click.IntRange(min=0), default=None,
              help="Worker processes for computer players (default: one per spare core; "
                   "0 runs them on threads).")
def serve(config_path: Path | None, flags: dict[str, Any], data_alias: Path | None,
          ai_processes: int | None) -> None:
    """Run the daemon: tables, players, the TCP and web ports, the control socket."""
    from hostd import datadir

    if data_alias is not None and flags.get("data_dir") is None:
        flags["data_dir"] = data_alias
    loaded = load_config(config_path, flags)
    cfg = loaded.config
    # Before anything else touches the data directory (the log file is in it): each check
    # fails as one line with nothing written, and the lock keeps a second daemon out.
    try:
        held = datadir.claim(cfg)
    except datadir.StartError as e:
        raise _fail(str(e)) from None
    with held:
        _serve_claimed(cfg, loaded, held, ai_processes)


def _serve_claimed(cfg: Config, loaded: Loaded, held: Claim, ai_processes: int | None) -> None:
    """``serve`` once the data directory is held: logging, then the daemon until it stops."""
    from hostd import daemon, datadir, logs
    from hostd.store import StorageError

    setup = logs.configure_from(cfg)
    log = logs.get_logger("hostd.cli")
    log.info("config_loaded", file=str(loaded.file) if loaded.file else None,
             note=loaded.file_note or None, log_mode=setup.mode,
             log_file=str(setup.file) if setup.file else None)
    if setup.file_error:
        log.warning("log_file_unavailable", error=setup.file_error)
    if held.tightened:
        log.warning("permissions_tightened", paths=held.tightened,
                    why="other users could read the seeds")

    def ready(started: Any) -> None:
        parts = [f"tcp {cfg.bind}:{started.tcp_port}"]
        if started.http_port is not None:
            parts.append(f"http {cfg.bind}:{started.http_port}")
        click.echo(f"tablebox: listening on {', '.join(parts)}; control {started.control}")
        for url in started.hub.join_urls:
            click.echo(f"tablebox: join at {url}/")
        click.echo(f"tablebox: {len(started.hub.tables)} tables restored; data in {cfg.data_dir}")
        if setup.console_level:
            click.echo(f"tablebox: warnings show here; every event is in {setup.file} "
                       f"(tablebox logs -f follows it)")
        sys.stdout.flush()

    try:
        daemon.run(cfg, on_ready=ready, ai_processes=ai_processes, held=held)
    except datadir.StartError as e:
        raise _fail(str(e)) from None
    except StorageError as e:
        raise _fail(datadir.database_failure(cfg.database, e)) from None
    except OSError as e:
        if e.errno == errno.EADDRINUSE:  # trio's bind does not say which port
            raise _fail(f"cannot start: a port is in use (tcp_port {cfg.tcp_port} or http_port "
                        f"{cfg.http_port} on {cfg.bind}); fix: tablebox doctor names the "
                        f"process holding it; stop it or choose another port") from None
        where = f" {e.filename}" if e.filename else ""
        raise _fail(f"cannot start:{where} {e.strerror or e}") from None
    except KeyboardInterrupt:
        pass


def control_option(f: Any) -> Any:
    return click.option("--control", "control", default=None,
                        type=click.Path(dir_okay=False, path_type=Path),
                        help="The daemon's control socket (default: $TABLEBOX_CONTROL, or "
                             "where `serve` puts it).")(f)


def _control_path(control: Path | None) -> Path:
    import os

    from hostd import config

    if control is not None:
        return control
    if os.environ.get("TABLEBOX_CONTROL"):
        return Path(os.environ["TABLEBOX_CONTROL"])
    return config.client_control_path(config.Config())


def _ask(control: Path | None, op: str, **args: Any) -> Any:
    """One request to the daemon; a ControlError becomes a one-line error."""
    from hostd.control import ControlError, request

    try:
        return request(_control_path(control), op, timeout=None if op == "drain" else 30.0,
                       **args)
    except ControlError as e:
        raise _fail(str(e)) from None


def _print_json(value: Any) -> None:
    click.echo(json.dumps(value, ensure_ascii=False, indent=2))


def _table_line(t: dict[str, Any]) -> str:
    if t["status"] == "damaged":
        return (f"{t['id']:>4}  {t['code']}  {t['game']:<10} {t['status']:<9} "
                f"{_damage_text(t['damage'])}  {t['name']}")
    # a playing table whose people are all away says so: it waits for them, it is not stuck
    status = "paused" if t.get("paused") and t["status"] == "playing" else t["status"]
    return (f"{t['id']:>4}  {t['code']}  {t['game']:<10} {status:<9} "
            f"{t['players'] - t['free_seats']}/{t['players']} people  {t['name']}")


def _damage_text(d: dict[str, Any]) -> str:
    """Where a damaged table's replay stopped: "replay stopped at step 2 (illegal_action)"."""
    game = f" of game {d['game']}" if d["game"] > 1 else ""
    return f"replay stopped at step {d['step']}{game} ({d['code']})"


def _seat_line(s: dict[str, Any]) -> str:
    who = s["name"] or "-"
    if s["controller"] == "ai":
        state = f"AI ({s['level']})"
    elif s["covered"]:
        state = f"person, away: AI ({s['level']}) covers"
    else:
        state = "person, connected" if s["connected"] else "person, away (grace period)"
    return f"seat {s['seat']}  team {s['team']}  {who:<24} {state}"


@main.group(name="tables", invoke_without_command=True)
@control_option
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_context
def tables_group(ctx: click.Context, control: Path | None, as_json: bool) -> None:
    """The daemon's tables (alone: list them)."""
    ctx.ensure_object(dict)
    ctx.obj["control"] = control
    if ctx.invoked_subcommand is None:
        ctx.invoke(tables_list, control=control, as_json=as_json)


@tables_group.command(name="list")
@control_option
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_context
def tables_list(ctx: click.Context, control: Path | None, as_json: bool) -> None:
    """List the open tables, damaged ones too (status damaged: export them)."""
    control = control or (ctx.obj or {}).get("control")
    tables = _ask(control, "tables.list")
    if as_json:
        _print_json({"tables": tables})
        return
    if not tables:
        click.echo("no tables (create one with: tablebox tables new GAME)")
    for t in tables:
        click.echo(_table_line(t))


@tables_group.command(name="new")
@click.argument("game")
@click.option("--players", type=int, default=None, help="Number of seats (default: the game's).")
@click.option("--opt", "opts", multiple=True, metavar="KEY=VALUE", help="A table option.")
@click.option("--ai", "ai_level", default=None, metavar="LEVEL[,LEVEL...]",
              help="The computer players' level, given to seats cyclically "
                   "(default: normal, where the game has it).")
@click.option("--name", default="", help="A name people see (default: the game's title).")
@click.option("--turn-timer", type=click.FloatRange(0, 3600), default=None,
              help="Seconds a person has per move before the AI plays it (0: off).")
@click.option("--seed", type=int, default=None, hidden=True,
              help="Pin the deal (tests, tournaments). Never shown to players.")
@control_option
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_context
def tables_new(ctx: click.Context, game: str, players: int | None, opts: tuple[str, ...],
               ai_level: str | None, name: str, turn_timer: float | None, seed: int | None,
               control: Path | None, as_json: bool) -> None:
    """Open a table of GAME with computer players in every seat; prints its id and join code."""
    try:
        options = parse_assignments(list(opts))
    except EngineError as e:
        raise _fail(str(e)) from None
    control = control or (ctx.obj or {}).get("control")
    t = _ask(control, "tables.new", game=game, players=players, options=options, ai=ai_level,
             name=name, turn_timer=turn_timer, seed=seed)
    if as_json:
        _print_json(t)
        return
    click.echo(f"table {t['id']}: {t['title']} for {t['players']}, join code {t['code']}")


@tables_group.command(name="show")
@click.argument("table")
@control_option
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_context
def tables_show(ctx: click.Context, table: str, control: Path | None, as_json: bool) -> None:
    """One table: its seats, whose turn it is, the public view."""
    control = control or (ctx.obj or {}).get("control")
    t = _ask(control, "tables.show", table=table)
    if as_json:
        _print_json(t)
        return
    click.echo(_table_line(t))
    if t["status"] == "damaged":
        click.echo(f"not playable: its stored events no longer replay; keep them with "
                   f"`tablebox export {t['id']} -o FILE` (docs/operations.md, Damaged tables)")
        return
    click.echo(f"game {t['game_number']}, version {t['version']}, to act: "
               f"{', '.join(map(str, t['to_act'])) or '-'}"
               + (f", turn timer {t['turn_timer']:g} s" if t["turn_timer"] else ""))
    for s in t["seats"]:
        click.echo("  " + _seat_line(s))
    if t["outcome"]:
        click.echo(f"outcome: {json.dumps(t['outcome'], ensure_ascii=False)}")


@tables_group.command(name="close")
@click.argument("table")
@control_option
@click.pass_context
def tables_close(ctx: click.Context, table: str, control: Path | None) -> None:
    """Close a table: everyone at it is told; its games stay as records."""
    control = control or (ctx.obj or {}).get("control")
    t = _ask(control, "tables.close", table=table)
    click.echo(f"table {t['id']} closed")


class _SeatsGroup(click.Group):
    """``tablebox seats TABLE`` lists; ``tablebox seats kick|ai ...`` change a seat."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        positional = [a for a in args if not a.startswith("-")]
        if positional and positional[0] not in self.commands:
            args = ["list", *args]
        return super().parse_args(ctx, args)


@main.group(name="seats", cls=_SeatsGroup)
def seats_group() -> None:
    """A table's seats: list them, kick a person, or set a seat's AI."""


@seats_group.command(name="list")
@click.argument("table")
@control_option
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def seats_list(table: str, control: Path | None, as_json: bool) -> None:
    """List the seats of TABLE."""
    seats = _ask(control, "seats.list", table=table)
    if as_json:
        _print_json({"seats": seats})
        return
    for s in seats:
        click.echo(_seat_line(s))


@seats_group.command(name="kick")
@click.argument("table")
@click.argument("seat", type=int)
@control_option
def seats_kick(table: str, seat: int, control: Path | None) -> None:
    """Remove the person in SEAT (the AI takes over; their token stops working)."""
    seats = _ask(control, "seats.kick", table=table, seat=seat)
    click.echo(_seat_line(seats[seat]))


@seats_group.command(name="ai")
@click.argument("table")
@click.argument("seat", type=int)
@click.argument("level")
@control_option
def seats_ai(table: str, seat: int, level: str, control: Path | None) -> None:
    """Make SEAT a computer player of LEVEL (removing any person there)."""
    seats = _ask(control, "seats.ai", table=table, seat=seat, level=level)
    click.echo(_seat_line(seats[seat]))


@main.command()
@click.argument("table")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the record here (default: standard output).")
@click.option("--game", "game_number", type=click.IntRange(min=1), default=None,
              help="Which game of the table (default: the current one).")
@control_option
def export(table: str, output: Path | None, game_number: int | None,
           control: Path | None) -> None:
    """Print a table's game record (unfinished: completed hands only, never the seed;
    damaged: every stored step, marked "damaged")."""
    record = _ask(control, "export", table=table, game=game_number)
    text = json.dumps(record, ensure_ascii=False, indent=2) + "\n"
    if output is None:
        click.echo(text, nl=False)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as e:
        raise _fail(f"cannot write {output}: {e.strerror}") from None
    damaged = f", damaged: {_damage_text(record['damaged'])}" if record.get("damaged") else ""
    click.echo(f"wrote {output} ({len(record.get('steps', []))} steps{damaged})")


@main.command()
@control_option
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def status(control: Path | None, as_json: bool) -> None:
    """Is the daemon up, and what is it doing."""
    s = _ask(control, "status")
    if as_json:
        _print_json(s)
        return
    listening = ", ".join(f"{k} {v['bind']}:{v['port']}" if isinstance(v, dict) else f"{k} {v}"
                          for k, v in s["listening"].items())
    click.echo(f"{s['box']}: up {s['uptime']:.0f} s{' (draining)' if s['draining'] else ''}")
    click.echo(f"tables: {s['tables'].get('playing', 0)} playing, "
               f"{s['tables'].get('finished', 0)} finished; connections {s['connections']}; "
               f"people seated {s['seated']} ({s['seated_connected']} connected); "
               f"moves {s['moves']}")
    click.echo(f"listening: {listening}")
    limits = s.get("connection_limits")
    if limits:
        click.echo(_limits_line(limits))
    for url in s["join_urls"]:
        click.echo(f"join: {url}/")


def _limits_line(limits: dict[str, Any]) -> str:
    """``connection limits: 12 of 7868 (64 per address); since start: 3 refused, ...``."""
    line = (f"connection limits: {limits['connections']} of {limits['total']} "
            f"({limits['per_address']} per address, {limits['descriptors']} descriptors)")
    counts = limits.get("since_start") or {}
    refused = sum(n for k, n in counts.items() if k.startswith("refused"))
    closed = sum(n for k, n in counts.items() if k.startswith("closed_idle"))
    failed = sum(n for k, n in counts.items() if k.isupper())  # accept errors: EMFILE, ...
    if refused or closed or failed:
        parts = [f"{refused} refused", f"{closed} idle closed to make room"]
        if failed:
            parts.append(f"{failed} failed accepts")
        line += "; since start: " + ", ".join(parts) + " (see tablebox logs)"
    return line


@main.command()
@click.option("--wait/--no-wait", default=True, help="Wait until no table is playing.")
@click.option("--timeout", type=click.FloatRange(min=0), default=None,
              help="Give up waiting after this many seconds.")
@control_option
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def drain(wait: bool, timeout: float | None, control: Path | None, as_json: bool) -> None:
    """Refuse new tables and joins, let the running games finish, then report."""
    r = _ask(control, "drain", wait=wait, within=timeout)
    if as_json:
        _print_json(r)
    elif r["done"]:
        idle = f", {r['idle']} waiting for people" if r.get("idle") else ""
        click.echo(f"drained: no game running ({r['finished']} finished{idle}) after "
                   f"{r['waited']:.1f} s; safe to restart")
    else:
        click.echo(f"draining: {r['playing']} tables still playing (new tables and joins refused)")


@main.group(name="protocol")
def protocol_group() -> None:
    """The client protocol."""


@protocol_group.command(name="schema")
def protocol_schema() -> None:
    """Print the JSON Schema of every message, both directions."""
    from hostd.protocol.messages import schema

    _print_json(schema())


# -- operations: updates ---------------------------------------------------------------------------
@main.command(name="update")
@config_flags
@click.option("--check", "mode", flag_value="check", default=True,
              help="Print the installed and the newest release with its notes (the default).")
@click.option("--apply", "mode", flag_value="apply",
              help="Download, verify, install side by side, wait until no one is playing, "
                   "switch, restart; roll back by itself if the new release fails.")
@click.option("--rollback", "mode", flag_value="rollback",
              help="Go back to the previous release (waits until no one is playing).")
@click.option("--feed", default=None, metavar="URL", help="Use this feed for this run.")
@click.option("--now", is_flag=True, help="Do not wait for the games to end.")
@click.option("--idle-timeout", type=click.FloatRange(min=0), default=None,
              help="Give up waiting for idle after this many seconds.")
@click.option("--allow-irreversible", is_flag=True,
              help="Go ahead with a database migration the previous release cannot open.")
@click.option("--auto", is_flag=True, hidden=True,
              help="Started by the daemon: skip releases that were rolled back before.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def update_command(config_path: Path | None, flags: dict[str, Any], mode: str,
                   feed: str | None, now: bool, idle_timeout: float | None,
                   allow_irreversible: bool, auto: bool, as_json: bool) -> None:
    """Over-the-air updates from the signed release feed (docs/operations.md, Updates)."""
    from hostd import config
    from hostd.update import UpdateError, apply, switch

    loaded = load_config(config_path, flags, operator=True)
    cfg = loaded.config
    if feed is not None:
        try:
            feed = config.check("update_feed", feed, "--feed")
        except config.ConfigError as e:
            raise _fail(str(e)) from None
    opts = apply.Options(
        releases=cfg.releases_dir, feed=feed or cfg.update_feed,
        control=config.client_control_path(cfg, loaded.sources),
        restart_command=cfg.update_restart_command, start_timeout=cfg.update_start_timeout,
        trial_window=cfg.update_trial_seconds, config_file=loaded.file, wait=not now,
        idle_timeout=idle_timeout, allow_irreversible=allow_irreversible, auto=auto)

    def say(text: str) -> None:
        if not as_json:
            click.echo(text)
            sys.stdout.flush()

    if auto and mode == "apply" and cfg.update != "apply-when-idle":
        say(f"update = {cfg.update}: not applying by itself (set apply-when-idle)")
        return

    try:
        if mode == "check":
            result = apply.check(opts.feed, opts.releases)
            import contextlib

            with contextlib.suppress(OSError):  # a record for doctor, when we may write it
                switch.write_state(opts.releases, last_check=result)
        elif mode == "apply":
            result = apply.apply(opts, say)
        else:
            result = apply.roll_back_by_hand(opts, say)
    except UpdateError as e:
        raise _fail(str(e)) from None
    if as_json:
        _print_json(result)
    elif mode == "check":
        click.echo(f"installed: {result['installed']}")
        top = result["newest"]
        if top is None:
            click.echo(f"newest: none listed in {opts.feed}")
        else:
            state = "available" if result["available"] else "up to date"
            if result.get("refused"):
                state += f"; rolled back before: {result['refused']['reason']}"
            click.echo(f"newest: {top['version']} ({state})")
            for line in (top["notes"] or "").strip().splitlines():
                click.echo(f"  {line}")
    elif not result.get("changed"):
        click.echo(result.get("skipped") or f"up to date: {result['installed']}")
    elif result.get("first"):
        exe = cfg.releases_dir / "current" / "venv" / "bin" / "tablebox"
        click.echo(f"installed {result['to']} as the first release in {cfg.releases_dir}; "
                   f"run the service from it: sudo {exe} service install --exec-start "
                   f"'{exe} serve'")
    elif mode == "apply" and result.get("rolled_back"):
        raise _fail(f"rolled back to {result['running']}: release {result['to']} "
                    f"{result['reason']}")
    else:
        click.echo(f"running {result['to']} (was {result['from']})")


@main.group(name="release")
def release_group() -> None:
    """For maintainers: sign a release's wheels, make a signing key."""


@release_group.command(name="sign")
@click.option("--key", "key_file", required=True,
              type=click.Path(dir_okay=False, path_type=Path),
              help="The Ed25519 private key (PEM), from `tablebox release keygen`.")
@click.option("--out", default=None, type=click.Path(file_okay=False, path_type=Path),
              help="Where to write SHA256SUMS and SHA256SUMS.sig (default: beside the wheel).")
@click.argument("wheels", nargs=-1, required=True,
                type=click.Path(dir_okay=False, path_type=Path))
def release_sign(key_file: Path, out: Path | None, wheels: tuple[Path, ...]) -> None:
    """Write SHA256SUMS for WHEEL... and its detached signature SHA256SUMS.sig."""
    from hostd.update import UpdateError, verify

    try:
        sums, sig = verify.sign(key_file, list(wheels), out)
    except UpdateError as e:
        raise _fail(str(e)) from None
    click.echo(f"wrote {sums} and {sig}; upload them with the wheel")


@release_group.command(name="keygen")
@click.option("--out", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The private key file to create (mode 0600; never overwritten).")
def release_keygen(out: Path) -> None:
    """Make a release signing key; prints the public key line for hostd/update/keys.py."""
    from hostd.update import UpdateError, verify

    try:
        public = verify.keygen(out)
    except UpdateError as e:
        raise _fail(str(e)) from None
    click.echo(f"wrote {out} (keep it offline); public key for hostd/update/keys.py TRUSTED:")
    click.echo(f'    "{public}",')


# -- operations: the box's own Wi-Fi ---------------------------------------------------------
def hotspot_text(status: dict[str, Any]) -> str:
    """``tablebox hotspot status`` for a person: the state, the network and page while it is
    on (with the Wi-Fi QR code drawn in the terminal, to scan off the operator's screen), the
    reason while it is not."""
    lines = [f"hotspot {status['state']} (mode {status['mode']})"]
    if status["state"] == "on":
        lines += [f"network  {status['ssid']} on {status['interface']}",
                  f"address  {status['address']}", f"page     {status['page']}"]
        if status.get("wifi"):
            import io

            import segno

            drawn = io.StringIO()
            segno.make(status["wifi"], error="m").terminal(out=drawn, compact=True)
            lines += ["scan to join the network:", drawn.getvalue().rstrip("\n")]
    if status.get("reason"):
        lines.append(f"reason   {status['reason']}")
    return "\n".join(lines)


@main.group(name="hotspot", invoke_without_command=True)
@control_option
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_context
def hotspot_group(ctx: click.Context, control: Path | None, as_json: bool) -> None:
    """The box's own Wi-Fi network (alone: its status)."""
    ctx.ensure_object(dict)
    ctx.obj["control"] = control
    if ctx.invoked_subcommand is None:
        ctx.invoke(hotspot_status, control=control, as_json=as_json)


def _hotspot_command(name: str, doc: str) -> None:
    @hotspot_group.command(name=name, help=doc)
    @control_option
    @click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
    @click.pass_context
    def command(ctx: click.Context, control: Path | None, as_json: bool) -> None:
        control = control or (ctx.obj or {}).get("control")
        status = (_ask(control, "hotspot.status") if name == "status"
                  else _ask(control, "hotspot.set", mode=name))
        if as_json:
            _print_json(status)
        else:
            click.echo(hotspot_text(status))


_hotspot_command("status", "Whether the box's Wi-Fi is up: network, page, QR code or reason.")
_hotspot_command("on", "Bring the box's Wi-Fi up now (until the daemon restarts).")
_hotspot_command("off", "Take the box's Wi-Fi down now (until the daemon restarts).")
hotspot_status = hotspot_group.commands["status"]


# -- operations: doctor ----------------------------------------------------------------------------
@main.command(name="doctor")
@config_flags
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def doctor_command(config_path: Path | None, flags: dict[str, Any], as_json: bool) -> None:
    """Check ports, network, join URLs, mDNS, Bluetooth, the hotspot, disk, clock and the
    database, and say what to fix. Exit status 1 when something must be fixed."""
    from hostd import config, doctor

    try:
        loaded, error = config.load_for_operator(config_path, flags), ""
    except config.ConfigError as e:
        loaded, error = None, str(e)
    checks = doctor.diagnose(loaded, error)
    if as_json:
        click.echo(doctor.to_json(checks))
    else:
        colour = {"ok": "green", "warn": "yellow", "fail": "red"}
        width = max(len(c.name) for c in checks)
        for c in checks:
            mark = click.style(f"{c.status:<4}", fg=colour[c.status], bold=c.status != "ok")
            click.echo(f"{mark}  {c.name:<{width}}  {c.detail}")
            if c.fix and c.status != "ok":
                click.echo(f"      {'':<{width}}  fix: {c.fix}")
    if not doctor.report(checks)["ok"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
