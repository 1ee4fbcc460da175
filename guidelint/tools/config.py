"""[tool.guidelint.tools] options (owned by the tool-references pillar)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from guidelint.config_base import ProjectPath, Section
from guidelint.settings import DefaultTools, unsafe_server_name

__all__ = ["ServerConfig", "ToolsConfig", "ToolsSettings", "unsafe_server_name"]


class ServerConfig(Section):
    """One MCP server declared in configuration, beside or instead of `.mcp.json`.

    A server may be declared by its snapshot alone (no command, no url): CI then
    resolves references against that file and never starts anything.
    """

    type: Literal["stdio", "http", "sse"] | None = None
    command: str | None = None
    args: list[str] = Field(default_factory=list)
    env: dict[str, str] = Field(default_factory=dict)
    cwd: str | None = None
    url: str | None = None
    headers: dict[str, str] = Field(default_factory=dict)
    snapshot: ProjectPath | None = Field(
        default=None, description="snapshot file, relative to the root"
    )
    timeout: float | None = Field(default=None, gt=0, description="seconds for a live listing")
    fallback_to_snapshot: bool | None = None


class ToolsConfig(Section):
    live: bool = Field(default=False, description="query MCP servers live on every check")
    mcp_config: ProjectPath = Field(
        default=".mcp.json", description="Claude Code's project server file"
    )
    snapshot_dir: ProjectPath = Field(
        default=".guidelint/tools", description="where snapshots live"
    )
    timeout: float = Field(default=20.0, gt=0, description="seconds per server for a live listing")
    fallback_to_snapshot: bool = Field(
        default=False, description="on a live failure, warn and use the snapshot instead of exit 2"
    )
    servers: dict[str, ServerConfig] = Field(default_factory=dict)
    # Servers registered outside the repository (user scope, plugins): their names are
    # known, their tools are not, so their references are neither checked nor flagged.
    external: list[str] = Field(
        default_factory=list, description="server names registered outside the repository"
    )
    # Built-in agent tools accepted beyond the bundled list (new Claude Code releases).
    extra_builtins: list[str] = Field(default_factory=list)
    # GitHub's tool aliases are a complete list, but VS Code's and extensions' names that
    # a Copilot custom agent may also use are not: checking bare names is asked for.
    copilot_tool_aliases: bool = Field(
        default=False, description="report a Copilot agent's bare tool names that are no alias"
    )

    @field_validator("servers")
    @classmethod
    def _names_name_files(cls, servers: dict[str, ServerConfig]) -> dict[str, ServerConfig]:
        for name in servers:
            unsafe = unsafe_server_name(name)
            if unsafe is not None:
                raise ValueError(f"server name {name!r} {unsafe}")
        return servers


# What a run's tools options are: the defaults (no configuration file) or a table.
ToolsSettings = ToolsConfig | DefaultTools
