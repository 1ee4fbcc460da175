"""GitHub Actions workflow commands (`::error file=...::message`), escaped in one place
for both `check`'s and `run`'s reports."""

from __future__ import annotations


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def workflow_command(level: str, message: str, properties: dict[str, str | int]) -> str:
    """`::level key=value,...::message`, every part escaped as GitHub requires."""
    props = ",".join(f"{key}={escape_property(str(value))}" for key, value in properties.items())
    return f"::{level} {props}::{escape_data(message)}"
