"""The long description the package index shows: README.md, with its relative links fixed.

A relative link (``[installing](docs/installing.md)``) works in the repository but leads
nowhere on a package index page. With ``links-base`` set (``[tool.hatch.metadata.hooks.custom]``
in pyproject.toml: where the repository's files are published, ending in ``/``), each becomes
an absolute link under it. Without one (spoiler-game has no public home yet, and no host is
guessed) each becomes its text and the file it names, which the sdist holds:
``installing (docs/installing.md)``. docs/publishing.md says why.
"""

from __future__ import annotations

import re
from pathlib import Path

from hatchling.metadata.plugin.interface import MetadataHookInterface

#: ``[text](target)`` whose target has no scheme and is not an anchor of the page itself.
RELATIVE = re.compile(r"\[([^\]]+)\]\((?![a-z][a-z0-9+.-]*:|#)([^)\s]+)\)")


def for_the_index(text: str, base: str = "") -> str:
    """README text whose relative links work on a package index page."""

    def fix(match: re.Match) -> str:
        label, target = match.groups()
        if base:
            return f"[{label}]({base}{target})"
        path = target.split("#")[0]
        if label.strip("`") in (path, path.rsplit("/", 1)[-1]):  # the link's text is the file
            return f"`{path}`"
        return f"{label} (`{path}`)"

    return RELATIVE.sub(fix, text)


class ReadmeHook(MetadataHookInterface):
    def update(self, metadata: dict) -> None:
        text = Path(self.root, "README.md").read_text(encoding="utf-8")
        base = str(self.config.get("links-base", ""))
        metadata["readme"] = {"content-type": "text/markdown", "text": for_the_index(text, base)}
