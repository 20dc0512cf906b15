"""``spoiler plugins``: every plugin, what it provides and hooks into, and whether it works."""

import typer

from spoiler.commands import common
from spoiler.commands.common import STATUS_STYLE, console, print_json
from spoiler.commands.group import command_app, examples

app = command_app()


@app.command("plugins", epilog=examples("spoiler plugins", "spoiler plugins --json"))
def list_plugins(
    as_json: bool = typer.Option(False, "--json", help="Print a JSON array instead of a table."),
) -> None:
    """List the plugins: their sets, bot kinds, hooks and status.

    SPOILER_TRACE_HOOKS=1 prints each hook call to stderr while you play."""
    registry = common.load_registry()
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
    if as_json:
        print_json(rows)
        return
    from rich.markup import escape
    from rich.table import Table

    table = Table(title="Plugins", title_justify="left")
    for column in ("Plugin", "Distribution", "Version", "Status", "Sets", "Bots", "Hooks"):
        table.add_column(column, overflow="fold", no_wrap=column in ("Plugin", "Hooks"))
    for row in rows:
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
