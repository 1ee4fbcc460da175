"""GL617 broad-filesystem-server: an MCP filesystem server handed the root or a home
directory, in any harness's server file: the agent may read and write every file there
(keys, credentials, other projects), not just the repository."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from guidelint.findings import Finding, Severity
from guidelint.tools.rulebase import ServerFileRule

if TYPE_CHECKING:
    from guidelint.project import Project
    from guidelint.sources import SourceFile

# The root of a disk, or a home directory however a harness spells it.
BROAD = re.compile(
    r"^(?:/|[A-Za-z]:[\\/]?|~[\\/]?|\$HOME/?|\$\{HOME\}/?|\$\{env:HOME\}/?|\$\{userHome\}/?|"
    r"%USERPROFILE%[\\/]?|/root/?|/home/[^/]+/?|/Users/[^/]+/?|[A-Za-z]:[\\/]Users[\\/][^\\/]+[\\/]?)$"
)


class BroadFilesystemServer(ServerFileRule):
    code = "GL617"
    name = "broad-filesystem-server"
    severity = Severity.WARNING

    def check(self, file: SourceFile, project: Project) -> Iterator[Finding]:
        from guidelint.tools.mcp_files import mcp_facts, server_file
        from guidelint.tools.mcp_launch import launch_words, launches, split_spec

        servers = server_file(file, project)
        if servers is None:
            return
        packages = set(mcp_facts()["filesystem_servers"]["packages"])
        for name, entry, path in servers.servers():
            words, where = launch_words(entry, path)
            for launch in launches(words):
                if split_spec(launch.spec, launch.ecosystem)[0] not in packages:
                    continue
                for index in range(launch.index + 1, len(words)):
                    if BROAD.match(words[index].strip()):
                        yield self.finding(
                            file,
                            servers.doc.span(file, where(index)),
                            f"server `{name}` gives the filesystem server `{words[index]}`: "
                            "the agent may read and write every file under it (SSH keys, "
                            "credentials, other projects), not just this repository; name "
                            "the folders it needs (`.`, `./docs`)",
                        )
