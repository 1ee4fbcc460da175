"""Stand-in images and videos for URLs an example downloads: deterministic, sensibly sized.

A photo-like picture (gradients and a few shapes, so edge detectors find edges) or,
when the URL names a mask, a white blob on black, as inpainting masks are. A video
URL (`load_video`) gets a few frames of that picture sliding, encoded as MP4 with
imageio-ffmpeg; a GIF has the frames too, so it serves as an image or a video.
"""

from __future__ import annotations

import hashlib
import io
from pathlib import PurePosixPath
from typing import Any
from urllib.parse import urlparse

SIZE = (512, 512)  # what SD-1.5-era example images are; examples resize as they please
IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".webp", ".bmp", ".gif"}
VIDEO_SUFFIXES = {".mp4", ".webm", ".mov", ".avi", ".mkv"}
VIDEO_SIZE = (256, 256)  # divisible by 16, as video pipelines want
FRAMES = 8
FPS = 8


def _suffix(url: str) -> str:
    return PurePosixPath(urlparse(url).path).suffix.lower()


# Hosts that serve nothing but images, with no suffix in the URL (Google's image
# serving: `.../y-iFOH...=s1200`, as in the SD image-variation example).
IMAGE_HOSTS = ("googleusercontent.com",)


def names_image(url: str) -> bool:
    host = (urlparse(url).hostname or "").lower()
    on_image_host = any(host == h or host.endswith("." + h) for h in IMAGE_HOSTS)
    return _suffix(url) in IMAGE_SUFFIXES or (on_image_host and not names_video(url))


def names_video(url: str) -> bool:
    return _suffix(url) in VIDEO_SUFFIXES


def names_mask(url: str) -> bool:
    return "mask" in PurePosixPath(urlparse(url).path).name.lower()


def _seed(url: str) -> int:
    return int.from_bytes(hashlib.sha256(url.encode()).digest()[:4], "big")


def picture(url: str):
    from PIL import Image, ImageDraw

    seed = _seed(url)
    width, height = SIZE
    image = Image.linear_gradient("L").resize(SIZE)
    red = image.rotate(seed % 360)
    blue = image.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
    picture = Image.merge("RGB", (red, image, blue))
    draw = ImageDraw.Draw(picture)
    for i in range(4):
        x, y = (seed >> (4 * i)) % (width // 2), (seed >> (4 * i + 2)) % (height // 2)
        box = (x, y, x + width // 3, y + height // 4)
        colour = ((seed >> i) % 256, (97 * i) % 256, (seed >> (2 * i)) % 256)
        (draw.ellipse if i % 2 else draw.rectangle)(box, fill=colour, outline=(0, 0, 0))
    return picture


def mask():
    from PIL import Image, ImageDraw

    width, height = SIZE
    image = Image.new("RGB", SIZE, (0, 0, 0))
    ImageDraw.Draw(image).ellipse(
        (width // 4, height // 4, 3 * width // 4, 3 * height // 4), fill=(255, 255, 255)
    )
    return image


def image_for(url: str):
    return mask() if names_mask(url) else picture(url)


def frames(url: str, size: tuple[int, int]) -> list:
    from PIL import ImageChops

    base = picture(url).resize(size)
    step = size[0] // (2 * FRAMES)
    return [ImageChops.offset(base, step * i, 0) for i in range(FRAMES)]


def encoded(url: str) -> bytes:
    """The stand-in as file bytes, in the format the URL's suffix names."""
    suffix = _suffix(url)
    if suffix in VIDEO_SUFFIXES:
        return encoded_video(url)
    buffer = io.BytesIO()
    if suffix == ".gif" and not names_mask(url):
        first, *rest = frames(url, SIZE)
        first.save(buffer, format="GIF", save_all=True, append_images=rest, duration=1000 // FPS)
        return buffer.getvalue()
    fmt = {".jpg": "JPEG", ".jpeg": "JPEG", ".webp": "WEBP", ".bmp": "BMP", ".gif": "GIF"}
    image_for(url).save(buffer, format=fmt.get(suffix, "PNG"))
    return buffer.getvalue()


def encoded_video(url: str) -> bytes:
    """An MP4 of the sliding picture (imageio with imageio-ffmpeg, the [diffusers] extra)."""
    import tempfile
    from pathlib import Path

    import imageio.v2 as imageio
    import numpy as np

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "video.mp4"
        pictures: list[Any] = [np.asarray(frame) for frame in frames(url, VIDEO_SIZE)]
        imageio.mimwrite(path, pictures, fps=FPS, format="FFMPEG", macro_block_size=16)
        return path.read_bytes()


def describe(url: str) -> str:
    if names_video(url):
        return f"a generated {VIDEO_SIZE[0]}x{VIDEO_SIZE[1]} video of {FRAMES} frames"
    kind = "mask" if names_mask(url) else "image"
    return f"a generated {SIZE[0]}x{SIZE[1]} {kind}"
