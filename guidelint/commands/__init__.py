"""The doors: the click CLI (`cli.py` and one module per command group), the MCP
server and the language server, each a thin adapter over the pillars' faces
(`api`, `gotchas.service`, `smoke.report`, `runner.run`).

Empty on purpose: `guidelint --version` imports this package and `cli` only.
"""
