"""Files an example fetches come from local fixtures; any other network access fails cleanly.

Served: `requests` (so `diffusers.utils.load_image(url)` too), `urllib.request.urlopen`
and `huggingface_hub.hf_hub_download`. A URL matching a `[tool.guidelint.runner.fixtures]`
glob gets that file; an image URL gets a generated image (a mask when the URL names
one); a controlnet_aux annotator file whose class is known is made (annotators.py), and
so is a single-file checkpoint the table knows (single_files.py) and a dataset file of
prompt embeddings (embeddings.py);
anything else raises the library's own connection error with a clear message.
"""

from __future__ import annotations

import fnmatch
import os
import tempfile
from pathlib import Path

from guidelint.runner.diffusers_backend import annotators, embeddings, images, single_files
from guidelint.runner.diffusers_backend.state import State, current, remember_original


def refusal(url: str) -> str:
    """The message the runner's verdict reads as the sandbox's refusal (outcome refused)."""
    from guidelint.runner.verdict import NO_NETWORK

    return f"{NO_NETWORK}{url} (map the URL to a local file in [tool.guidelint.runner.fixtures])"


def fixture_for(url: str, state: State) -> Path | None:
    for pattern, target in state.fixtures.items():
        if fnmatch.fnmatchcase(url, pattern):
            return state.local_path(target)
    return None


def serve(url: str, state: State, via: str) -> bytes | None:
    """The bytes to answer `url` with, recorded; None when it must fail."""
    fixture = fixture_for(url, state)
    if fixture is not None:
        state.record(f"{via} {url} -> fixture {fixture}")
        return fixture.read_bytes()
    if images.names_image(url) or images.names_video(url):
        state.record(f"{via} {url} -> {images.describe(url)}")
        return images.encoded(url)
    if annotators.known(url):
        state.record(f"{via} {url} -> {annotators.describe(url)}")
        return annotators.made(url)
    if single_files.known(url):
        state.record(f"{via} {url} -> {single_files.describe(url)}")
        return single_files.made(url, state)
    if embeddings.known(url):
        state.record(f"{via} {url} -> {embeddings.describe(url)}")
        return embeddings.made(url)
    return None


def install_requests() -> None:
    import requests
    from requests.adapters import HTTPAdapter

    original = HTTPAdapter.send

    def send(self, request, *args, **kwargs):
        state = current()
        if state is None:
            return original(self, request, *args, **kwargs)
        body = serve(request.url, state, f"requests {request.method}")
        if body is None:
            raise requests.exceptions.ConnectionError(refusal(request.url), request=request)
        return _response(request, body)

    remember_original(send, original)
    HTTPAdapter.send = send  # type: ignore[method-assign]  # patching the method is the point


def _response(request, body: bytes):
    import io

    from requests.models import Response
    from requests.structures import CaseInsensitiveDict

    response = Response()
    response.status_code = 200
    response.reason = "OK"
    response.url = request.url
    response.request = request
    response.headers = CaseInsensitiveDict({"Content-Length": str(len(body))})
    response.raw = io.BytesIO(body)  # read by .content and by PIL.Image.open(response.raw)
    return response


def install_urllib() -> None:
    import io
    import urllib.error
    import urllib.request
    from email.message import Message
    from urllib.response import addinfourl

    original = urllib.request.urlopen

    def urlopen(url, *args, **kwargs):
        state = current()
        if state is None:
            return original(url, *args, **kwargs)
        text = url.full_url if isinstance(url, urllib.request.Request) else str(url)
        body = serve(text, state, "urlopen")
        if body is None:
            raise urllib.error.URLError(refusal(text))
        return addinfourl(io.BytesIO(body), Message(), text, 200)

    remember_original(urlopen, original)
    urllib.request.urlopen = urlopen


def hub_url(repo_id: str, filename: str, subfolder=None, repo_type=None) -> str:
    prefix = {"dataset": "datasets/", "space": "spaces/"}.get(repo_type or "model", "")
    path = f"{subfolder}/{filename}" if subfolder else filename
    return f"https://huggingface.co/{prefix}{repo_id}/resolve/main/{path}"


def install_hub_download() -> None:
    import huggingface_hub
    from huggingface_hub import file_download
    from huggingface_hub.errors import LocalEntryNotFoundError

    original = file_download.hf_hub_download

    def hf_hub_download(repo_id, filename, *args, subfolder=None, repo_type=None, **kwargs):
        state = current()
        if state is None:
            return original(
                repo_id, filename, *args, subfolder=subfolder, repo_type=repo_type, **kwargs
            )
        url = hub_url(repo_id, filename, subfolder, repo_type)
        body = serve(url, state, "hf_hub_download")
        if body is None:
            raise LocalEntryNotFoundError(refusal(url))
        folder = Path(tempfile.mkdtemp(prefix="hub-", dir=tempfile.gettempdir()))
        path = folder / os.path.basename(filename)
        path.write_bytes(body)
        return str(path)

    remember_original(hf_hub_download, original)
    huggingface_hub.hf_hub_download = hf_hub_download
    file_download.hf_hub_download = hf_hub_download
    annotators.rebind(hf_hub_download)


def install() -> None:
    install_requests()
    install_urllib()
    install_hub_download()
