#!/usr/bin/env python3
"""Build guidelint's bundled catalog of published MCP servers from the real servers.

    /work/main/.venv/bin/python scripts/catalog_servers.py [--only PACKAGE ...] [--work DIR]

For each package below it installs the newest release from npm (`npm install
--prefix`, needs node and npm: on Debian `apt-get install nodejs npm`) or PyPI (a
fresh virtual environment per package), starts the installed server over stdio,
asks `tools/list` (and prompts, resources) with guidelint's own live client, and
writes `guidelint/tools/catalog_data/<package>@<version>.json` with the package,
registry, version, the commands that start it and the lists. It also copies the
package's README from the installed files (the npm tarball's README.md, the wheel's
long description) to `tests/fixtures/tools/readmes/`, for scripts/fidelity_tools.py.

Nothing here runs in CI: CI uses only the committed JSON. A package that fails to
install or list is one line on stderr, and the others go on. Older entries of a
package are removed, so the catalog holds one version per package.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from guidelint.tools.live import list_servers  # noqa: E402
from guidelint.tools.published import entry_file_name  # noqa: E402
from guidelint.tools.servers import ServerSpec  # noqa: E402
from guidelint.tools.snapshot import to_wire  # noqa: E402

DATA = REPO / "guidelint" / "tools" / "catalog_data"
READMES = REPO / "tests" / "fixtures" / "tools" / "readmes"


@dataclass
class Package:
    registry: str  # "npm" | "pypi"
    name: str
    args: list[str] = field(default_factory=list)  # {work}: a scratch folder
    env: dict[str, str] = field(default_factory=dict)
    bin: str = ""  # the executable, when it is not the package's only one
    with_requirements: list[str] = field(default_factory=list)  # pins its release needs


PACKAGES = [
    Package("npm", "@modelcontextprotocol/server-filesystem", ["{work}"]),
    Package(
        "npm", "@modelcontextprotocol/server-memory", env={"MEMORY_FILE_PATH": "{work}/m.json"}
    ),
    Package("npm", "@modelcontextprotocol/server-everything", ["stdio"]),
    Package("npm", "@modelcontextprotocol/server-sequential-thinking"),
    Package("npm", "@playwright/mcp"),
    Package("npm", "@upstash/context7-mcp"),
    Package("npm", "chrome-devtools-mcp"),
    Package(
        "npm", "@modelcontextprotocol/server-github", env={"GITHUB_PERSONAL_ACCESS_TOKEN": "x"}
    ),
    Package("npm", "@modelcontextprotocol/server-brave-search", env={"BRAVE_API_KEY": "x"}),
    Package("npm", "@notionhq/notion-mcp-server"),
    Package("npm", "firecrawl-mcp", env={"FIRECRAWL_API_KEY": "fc-x"}),
    Package("pypi", "mcp-server-git"),
    Package("pypi", "mcp-server-fetch"),
    Package("pypi", "mcp-server-time"),
    # Its last release predates the mcp SDK 2 (which dropped Server.list_resources).
    Package(
        "pypi", "mcp-server-sqlite", ["--db-path", "{work}/db.sqlite"], with_requirements=["mcp<2"]
    ),
]


@dataclass
class Installed:
    version: str
    command: str
    bins: list[str]
    readme: str
    modules: list[str] = field(default_factory=list)  # `python -m` names


def install_npm(package: Package, into: Path) -> Installed:
    run(["npm", "install", "--prefix", str(into), "--no-audit", "--no-fund", package.name], package)
    manifest = json.loads((into / "node_modules" / package.name / "package.json").read_text())
    bins = manifest.get("bin") or {}
    if isinstance(bins, str):
        bins = {package.name.rsplit("/", 1)[-1]: bins}
    binary = package.bin or next(iter(bins))
    readme = next((into / "node_modules" / package.name).glob("[Rr][Ee][Aa][Dd][Mm][Ee]*"), None)
    return Installed(
        version=manifest["version"],
        command=str(into / "node_modules" / ".bin" / binary),
        bins=sorted(bins),
        readme=readme.read_text(encoding="utf-8") if readme else "",
    )


PYPI_PROBE = """
import importlib.metadata as m, json, sys
d = m.distribution(sys.argv[1])
eps = [e.name for e in d.entry_points if e.group == "console_scripts"]
mods = sorted({e.value.split(":")[0].split(".")[0] for e in d.entry_points
               if e.group == "console_scripts"})
print(json.dumps({"version": d.version, "bins": eps, "modules": mods,
                  "readme": d.metadata.get_payload() or d.metadata.get("Description") or ""}))
"""


def install_pypi(package: Package, into: Path) -> Installed:
    run([sys.executable, "-m", "venv", str(into)], package)
    python = into / "bin" / "python"
    run(
        [str(python), "-m", "pip", "install", "-q", package.name, *package.with_requirements],
        package,
    )
    probe = subprocess.run(
        [str(python), "-c", PYPI_PROBE, package.name], capture_output=True, text=True, check=True
    )
    info = json.loads(probe.stdout)
    binary = package.bin or info["bins"][0]
    return Installed(
        version=info["version"],
        command=str(into / "bin" / binary),
        bins=sorted(info["bins"]),
        readme=info["readme"],
        modules=info["modules"],
    )


def run(command: list[str], package: Package) -> None:
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["?"]
        raise RuntimeError(f"{' '.join(command[:3])} failed: {tail[0]}")


def snapshot(package: Package, installed: Installed, work: Path) -> dict:
    fill = lambda s: s.replace("{work}", str(work))  # noqa: E731
    spec = ServerSpec(
        name="catalog",
        type="stdio",
        command=installed.command,
        args=[fill(a) for a in package.args],
        env={k: fill(v) for k, v in package.env.items()},
        timeout=90,
    )
    listing = list_servers([spec], work)["catalog"]
    if listing.error:
        raise RuntimeError(listing.error)
    wire = to_wire(listing.tools, listing.prompts, listing.resources)
    launcher = "npx -y" if package.registry == "npm" else "uvx"
    return {
        "package": package.name,
        "registry": package.registry,
        "version": installed.version,
        "snapshotted": date.today().isoformat(),
        "commands": [f"{launcher} {package.name}", *installed.bins],
        "modules": installed.modules,
        **wire,
    }


def build(package: Package, scratch: Path) -> str:
    into = scratch / package.name.replace("/", "__")
    work = scratch / (into.name + "-work")
    work.mkdir(parents=True, exist_ok=True)
    installer = install_npm if package.registry == "npm" else install_pypi
    installed = installer(package, into)
    entry = snapshot(package, installed, work)
    name = entry_file_name(package.name, installed.version)
    for old in DATA.glob(entry_file_name(package.name, "*")):
        old.unlink()
    (DATA / name).write_text(json.dumps(entry, indent=1, ensure_ascii=False) + "\n")
    if installed.readme:
        READMES.mkdir(parents=True, exist_ok=True)
        for old in READMES.glob(entry_file_name(package.name, "*")[: -len(".json")] + ".md"):
            old.unlink()
        readme = READMES / (name[: -len(".json")] + ".md")
        readme.write_text(installed.readme, encoding="utf-8")
    return f"{package.name}@{installed.version}: {len(entry['tools'])} tools"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--only", nargs="*", default=None, help="package names to rebuild")
    parser.add_argument("--work", type=Path, default=None, help="keep installs here")
    options = parser.parse_args()
    wanted = [p for p in PACKAGES if options.only is None or p.name in options.only]
    scratch = options.work or Path(tempfile.mkdtemp(prefix="guidelint-catalog-"))
    os.environ.setdefault("npm_config_update_notifier", "false")
    failed = 0
    for package in wanted:
        try:
            print(build(package, scratch), flush=True)
        except Exception as err:  # one line per package; the others go on
            failed += 1
            print(f"{package.name}: {err}", file=sys.stderr, flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
