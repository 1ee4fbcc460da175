"""GL502's signals that a link's target or anchor is found, though no file shows it.

`guidelint/rules/gl502_broken_link.py` holds the rule: its loop resolves each
relative link and asks these signals, in turn, before it reports a link broken. One
module per kind, so precision work changes one family at a time:

- `targets`: where a link's target is looked for (the bases, pretty URLs, submodules);
- `anchors`: the anchors a page has as sites make them (slugs, Unicode, autodoc, MyST);
- `translations`: i18n fallback pages and parallel language or version trees;
- `names`: targets that name an API symbol, a MyST label or a wiki slug, not a file;
- `built_pages`: pages a docs build writes (git-ignored, MkDocs nav and site URLs);
- `typedoc`: TypeDoc's generated API reference;
- `steering`: Claude Code's steering files and `@path` imports (also for GL501, GL606, GL612).
"""
