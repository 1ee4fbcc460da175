"""MkDocs sites translated with the i18n plugin (mkdocs-static-i18n): a page missing in
a language is served from the default language's, so a link from a translated page to
a page nobody translated still works.

Two layouts: `docs_structure: folder` (`docs/ja/agents.md`; the default language's
pages in `docs/<default>/` or at the top of `docs/`) and `suffix` (`docs/agents.ja.md`
beside `docs/agents.md`). `fallback_to_default: false` (for the plugin, or for one
language) turns the fallback off.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from guidelint.project import Memo

if TYPE_CHECKING:
    from guidelint.project import Project

MKDOCS_CONFIG_NAMES = ("mkdocs.yml", "mkdocs.yaml")


@dataclass(frozen=True)
class I18nSite:
    docs_dir: str  # relative to the repository root ('' for the root)
    structure: str  # "folder" | "suffix"
    default: str  # the default language's locale
    falling_back: frozenset[str]  # the other locales whose missing pages fall back


def fallback_page(rel: str, targets: list[str], project: Project) -> str | None:
    """The default language's page a link from `rel` reaches when `targets` (where the
    link points, from the repository root) are missing in `rel`'s language, or None."""
    for site in _sites_above(rel, project):
        for target in targets:
            for page in _fallbacks(site, rel, target):
                if project.exists(page):
                    return page
    return None


def _sites_above(rel: str, project: Project) -> Iterator[I18nSite]:
    """The i18n sites whose mkdocs.yml is in a folder above `rel`: looked up by name,
    never by listing the repository (a link check must not start git)."""
    read: dict[str, I18nSite | None] = project.memo(I18N_SITES)
    folder = posixpath.dirname(rel)
    while True:
        for name in MKDOCS_CONFIG_NAMES:
            config = posixpath.join(folder, name) if folder else name
            if project.exists(config):
                if config not in read:
                    read[config] = _site(config, project)
                site = read[config]
                if site is not None:
                    yield site
        if not folder:
            return
        folder = posixpath.dirname(folder)


def _fallbacks(site: I18nSite, rel: str, target: str) -> list[str]:
    if site.structure == "suffix":
        return _suffix_fallbacks(site, rel, target)
    prefix = f"{site.docs_dir}/" if site.docs_dir else ""
    if not rel.startswith(prefix) or not target.startswith(prefix):
        return []
    locale = rel[len(prefix) :].split("/", 1)[0]
    inside = target[len(prefix) :]
    if locale not in site.falling_back or not inside.startswith(f"{locale}/"):
        return []
    page = inside[len(locale) + 1 :]
    # The default language's folder, or (as many sites keep it) the top of docs_dir.
    return [f"{prefix}{site.default}/{page}", f"{prefix}{page}"]


def _suffix_fallbacks(site: I18nSite, rel: str, target: str) -> list[str]:
    """`agents.ja.md` linking `tools.ja.md`, which is missing: `tools.md` is served."""
    prefix = f"{site.docs_dir}/" if site.docs_dir else ""
    if not rel.startswith(prefix) or not target.startswith(prefix):
        return []
    stem, ext = posixpath.splitext(target)
    locale = posixpath.splitext(stem)[1].lstrip(".")
    own = posixpath.splitext(posixpath.splitext(rel)[0])[1].lstrip(".")
    if not locale or locale != own or locale not in site.falling_back:
        return []
    return [posixpath.splitext(stem)[0] + ext]


# mkdocs.yml read per run, by its path: its i18n site, or None.
I18N_SITES: Memo[[], dict[str, I18nSite | None]] = Memo("mkdocs.i18n_sites", lambda _project: {})


def _site(rel: str, project: Project) -> I18nSite | None:
    source = project.read(rel)
    if source is None or "i18n" not in source.text:
        return None
    config = load_mkdocs_yaml(source.text)
    if not isinstance(config, dict):
        return None
    options = _plugin_options(config.get("plugins"), "i18n")
    if options is None:
        return None
    languages = [lang for lang in options.get("languages") or () if isinstance(lang, dict)]
    default = next((str(lang.get("locale")) for lang in languages if lang.get("default")), None)
    if default is None:
        return None
    plugin_fallback = options.get("fallback_to_default", True) is not False
    falling_back = frozenset(
        str(lang.get("locale"))
        for lang in languages
        if lang.get("locale") and lang.get("fallback_to_default", plugin_fallback) is not False
    )
    docs_dir = str(config.get("docs_dir") or "docs").strip("/")
    folder = posixpath.dirname(rel)
    return I18nSite(
        docs_dir=posixpath.normpath(posixpath.join(folder, docs_dir)) if folder else docs_dir,
        structure="suffix" if options.get("docs_structure") == "suffix" else "folder",
        default=default,
        falling_back=falling_back - {default},
    )


def _plugin_options(plugins: Any, name: str) -> dict[str, Any] | None:
    """A plugin's options from MkDocs' `plugins:` (a list of names or one-key
    mappings, or a mapping of name to options)."""
    if isinstance(plugins, dict):
        options = plugins.get(name, None if name not in plugins else {})
        return options if isinstance(options, dict) else ({} if name in plugins else None)
    for entry in plugins if isinstance(plugins, list) else ():
        if entry == name:
            return {}
        if isinstance(entry, dict) and name in entry:
            options = entry[name]
            return options if isinstance(options, dict) else {}
    return None


def load_mkdocs_yaml(text: str) -> Any:
    """mkdocs.yml as data, its tags (`!!python/name:`, `!ENV`, `!relative`) read as
    None: values no link depends on. None where the YAML does not read."""
    import yaml

    try:
        return yaml.load(text, Loader=_tolerant_loader())  # noqa: S506 - a SafeLoader
    except yaml.YAMLError:
        return None


@lru_cache(maxsize=1)
def _tolerant_loader() -> Any:
    """A SafeLoader that reads every tag it does not know as None. Built on first use:
    PyYAML is imported only for a site that names the plugin."""
    import yaml

    base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    loader: Any = type("MkDocsLoader", (base,), {})
    loader.add_multi_constructor("", lambda _loader, _suffix, _node: None)
    return loader
