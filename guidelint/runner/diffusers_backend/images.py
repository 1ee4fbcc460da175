"""Stand-in images for URLs an example downloads: deterministic, of a sensible size.

A photo-like picture (gradients and a few shapes, so edge detectors find edges) or,
when the URL names a mask, a white blob on black, as inpainting masks are.
"""

from __future__ import annotations

import hashlib
import io
from pathlib import PurePosixPath
from urllib.parse import urlparse

SIZE = (512, 512)  # what SD-1.5-era example images are; examples resize as they please
IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".webp", ".bmp", ".gif"}


def names_image(url: str) -> bool:
    return PurePosixPath(urlparse(url).path).suffix.lower() in IMAGE_SUFFIXES


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


def encoded(url: str) -> bytes:
    """The stand-in image as file bytes, in the format the URL's suffix names."""
    suffix = PurePosixPath(urlparse(url).path).suffix.lower()
    fmt = {".jpg": "JPEG", ".jpeg": "JPEG", ".webp": "WEBP", ".bmp": "BMP", ".gif": "GIF"}
    buffer = io.BytesIO()
    image_for(url).save(buffer, format=fmt.get(suffix, "PNG"))
    return buffer.getvalue()


def describe(url: str) -> str:
    kind = "mask" if names_mask(url) else "image"
    return f"a generated {SIZE[0]}x{SIZE[1]} {kind}"
