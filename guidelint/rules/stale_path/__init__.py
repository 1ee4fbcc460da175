"""GL501's signals that a backticked path is not a stale path of this repository.

`guidelint/rules/gl501_stale_path.py` holds the rule: its loop asks each signal in
turn, cheapest first, and reports a path none of them explains. The signals are
grouped by kind, one module each, so precision work changes one family at a time:

- `candidates`: which code spans are read as paths at all;
- `placeholders`: paths written to be filled in (`path/to`, `YYYY`, `LANG_ID`);
- `sentences`: what the sentence around a path says (an example, made, old, not yet);
- `made`: what a run or each machine makes (`results/`, `.cache/`, `.env`, ignored);
- `builds`: what a build writes (`dist/`, `site/`, a tsconfig's `outDir`);
- `illustrative`: paths of a thing described (a generic tree, a table of samples);
- `roots`: where a document's paths start (a skill's, a package's, a crate's root);
- `conventions`: names shaped like paths (MCP methods, GitHub Actions, import paths);
- `elsewhere`: paths of another repository, said so by the path's sentence;
- `agent_memory`: the memory file an agent's instructions tell it to keep and write;
- `project_files`: the file list indexed once, which several signals share.
"""
