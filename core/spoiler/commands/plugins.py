"""``spoiler plugins``: every plugin, what it provides and hooks into, and whether it works."""

import typer

from spoiler.commands import common
from spoiler.commands.common import STATUS_STYLE, console, print_json
from spoiler.commands.group import command_app, examples

app = command_app()


@app.command("plugins", epilog=examples("spoiler plugins", "spoiler plugins --json"))
def list_plugins(
    as_json: bool = typer.Option(
        False, "--json", help="Print a JSON object instead of tables (docs/json.md)."
    ),
) -> None:
    """List the plugins: their commands, sets, bots, hooks and status.

    The commands other distributions add are listed too, each imported to check that it
    loads. SPOILER_TRACE_HOOKS=1 prints each hook call to stderr while you play."""
    from spoiler.commands import discovery
    from spoiler.plugins import stdout_to_stderr

    registry = common.load_registry()
    with stdout_to_stderr():  # a command plugin printing as it is imported
        commands = discovery.checked()
    plugins = sorted(registry.plugins.values(), key=lambda p: (not p.builtin, p.key))
    rows = [
        {
            "name": p.key,
            "distribution": p.distribution,
            "version": p.version,
            "builtin": p.builtin,
            "status": p.status,
            "error": p.error,
            "sets": list(p.sets),
            "bots": sorted(k for k, a in registry.agents.items() if a.plugin == p.key),
            "hooks": list(p.hooks),
        }
        for p in plugins
    ]
    named = [c.name for c in commands]
    rows += [
        {
            # "spoiler NAME", told apart by distribution when another claims that name too
            "name": f"spoiler {c.name}"
            + (f" ({c.distribution})" if not c.builtin and named.count(c.name) > 1 else ""),
            "command": c.name,
            "distribution": c.distribution,
            "version": c.version,
            "builtin": c.builtin,
            "status": c.status,
            "error": c.error,
            "sets": [],
            "bots": [],
            "hooks": [],
        }
        for c in commands
    ]
    if as_json:
        print_json({"plugins": rows})
        return
    from rich.markup import escape
    from rich.table import Table

    table = Table(title="Plugins", title_justify="left")
    for column in ("Plugin", "Distribution", "Version", "Status", "Sets", "Bots", "Hooks"):
        table.add_column(column, overflow="fold", no_wrap=column in ("Plugin", "Hooks"))
    for row in rows[: len(plugins)]:
        style = STATUS_STYLE[row["status"]]
        status = f"[{style}]{row['status']}[/]"
        if row["error"]:
            status += f"\n{escape(row['error'])}"
        hooks = "\n".join(h.removeprefix("spoiler_") for h in row["hooks"])
        table.add_row(
            row["name"],
            row["distribution"] + (" (built in)" if row["builtin"] else ""),
            row["version"],
            status,
            ", ".join(row["sets"]),
            ", ".join(row["bots"]),
            hooks,
        )
    console().print(table)
    bots = Table(title="Bot kinds (spoiler play --bot KIND)", title_justify="left")
    for column in ("Kind", "Plugin", "How it plays"):
        bots.add_column(column, no_wrap=column != "How it plays")
    for kind, agent in sorted(registry.agents.items()):
        bots.add_row(kind, agent.plugin, escape(agent.description))
    console().print()
    console().print(bots)
    command_table = Table(title="Commands (spoiler COMMAND)", title_justify="left")
    for column in ("Command", "Distribution", "Version", "Status"):
        command_table.add_column(column, overflow="fold", no_wrap=column == "Command")
    for row in rows[len(plugins) :]:
        status = f"[{STATUS_STYLE[row['status']]}]{row['status']}[/]"
        if row["error"]:
            status += f"\n{escape(row['error'])}"
        command_table.add_row(
            row["command"],
            row["distribution"] + (" (built in)" if row["builtin"] else ""),
            row["version"],
            status,
        )
    console().print()
    console().print(command_table)
