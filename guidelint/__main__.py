"""`python -m guidelint` and the `guidelint` command.

`--version` alone is answered here, before click and the commands are imported: a
pre-commit hook or a CI step that asks for it pays for the interpreter only.
"""

import sys

from guidelint import __version__


def run() -> None:
    if sys.argv[1:] == ["--version"]:
        print(f"guidelint, version {__version__}")  # as click's version_option says it
        return
    from guidelint.commands.cli import main

    main()


if __name__ == "__main__":
    run()
