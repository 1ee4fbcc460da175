"""guidelint/confine.py: names are names, paths stay in the project, no symlink followed."""

from __future__ import annotations

import os

import pytest

from guidelint.confine import (
    OWNED_MARK,
    Outside,
    copy_into,
    files_below,
    open_dir,
    resolve_inside,
    safe_name,
    write_at,
)


@pytest.mark.parametrize("text", ["..", ".", "../../etc", "a/b", "/abs", "x\x00y", ""])
def test_safe_name_is_one_plain_name(text):
    name = safe_name(text)
    assert name and "/" not in name and "\x00" not in name and name not in (".", "..")


def test_resolve_inside_follows_symlinks_before_judging(tmp_path):
    root = tmp_path / "root"
    (root / "docs").mkdir(parents=True)
    (root / "out").symlink_to(tmp_path, target_is_directory=True)
    assert resolve_inside(root, "docs/a.md") == (root / "docs" / "a.md").resolve()
    for escape in ("../x", "/etc/passwd", "out/x", "docs/../../x"):
        with pytest.raises(Outside) as raised:
            resolve_inside(root, escape, "gotchas file")
        assert "\n" not in str(raised.value) and "gotchas file" in str(raised.value)


def test_open_dir_makes_folders_and_refuses_any_symlink_below_the_root(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    fd = open_dir(root, ".guidelint_cache/run/a")
    os.close(fd)
    assert (root / ".guidelint_cache" / "run" / "a").is_dir()
    (root / "link").symlink_to(tmp_path, target_is_directory=True)
    with pytest.raises(Outside, match="link is a symlink"):
        open_dir(root, "link/sub")
    assert not (tmp_path / "sub").exists()


def test_open_dir_outside_the_root_only_for_a_folder_guidelint_owns(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "keep").write_text("x")
    with pytest.raises(Outside, match="not guidelint's"):
        open_dir(root, foreign)
    os.close(open_dir(root, tmp_path / "made-now"))
    assert (tmp_path / "made-now" / OWNED_MARK).exists()
    os.close(open_dir(root, tmp_path / "made-now"))  # marked: ours on the next run too


def test_write_at_replaces_a_planted_symlink_instead_of_writing_through(tmp_path):
    target = tmp_path / "target.txt"
    target.write_text("original")
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "index.html").symlink_to(target)
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        write_at(fd, "index.html", b"page")
    finally:
        os.close(fd)
    assert target.read_text() == "original"
    assert (folder / "index.html").read_text() == "page"
    assert not (folder / "index.html").is_symlink()


def test_files_below_skips_links_and_copy_into_bounds_the_size(tmp_path):
    source = tmp_path / "scratch"
    (source / "sub").mkdir(parents=True)
    (source / "sub" / "a.png").write_bytes(b"png")
    (source / "big.png").write_bytes(b"x" * 100)
    (source / "link.png").symlink_to("/etc/passwd")
    (source / "dirlink").symlink_to(tmp_path, target_is_directory=True)
    out = tmp_path / "out"
    out.mkdir()
    scratch_fd = os.open(source, os.O_RDONLY | os.O_DIRECTORY)
    out_fd = os.open(out, os.O_RDONLY | os.O_DIRECTORY)
    try:
        copied = {
            rel: copy_into(fd, out_fd, rel.replace("/", "_"), limit=10)
            for rel, fd in files_below(scratch_fd)
        }
    finally:
        os.close(scratch_fd)
        os.close(out_fd)
    assert copied == {"big.png": False, "sub/a.png": True}
    assert sorted(p.name for p in out.iterdir()) == ["sub_a.png"]


def test_open_inside_asks_where_the_opened_file_lies(tmp_path):
    """A link out (or one swapped in after discovery) is never read (#28)."""
    from guidelint.confine import Outside, open_inside

    root, outside = tmp_path / "project", tmp_path / "outside"
    (root / "docs").mkdir(parents=True)
    outside.mkdir()
    (outside / "secret.md").write_text("SECRET\n")
    (root / "docs/own.md").write_text("ours\n")
    (root / "docs/link").symlink_to(outside, target_is_directory=True)
    (root / "docs/file.md").symlink_to(outside / "secret.md")
    for named in ("docs/link/secret.md", "docs/file.md", "../outside/secret.md"):
        with pytest.raises(Outside, match="leads outside the project"):
            open_inside(root, named)
    fd = open_inside(root, "docs/own.md")
    with os.fdopen(fd, "rb") as handle:
        assert handle.read() == b"ours\n"
