"""controlnet_aux's annotator files from lllyasviel/Annotators are made offline, of the
class controlnet_aux loads them into; other annotator files stay refused."""

from __future__ import annotations

import pytest

pytest.importorskip("diffusers")
pytest.importorskip("controlnet_aux")

from tests.diffusers.test_diffusers_shims import activated, in_child  # noqa: E402

ANNOTATORS = """
from controlnet_aux import LineartAnimeDetector
from controlnet_aux.processor import OpenposeDetector
from huggingface_hub import hf_hub_download
from huggingface_hub.errors import LocalEntryNotFoundError
from PIL import Image

lineart = LineartAnimeDetector.from_pretrained("lllyasviel/Annotators")
again = LineartAnimeDetector.from_pretrained("lllyasviel/Annotators")
image = Image.new("RGB", (64, 64), "red")
drawn = lineart(image, detect_resolution=64, image_resolution=64, output_type="pil")
pose = OpenposeDetector.from_pretrained("lllyasviel/Annotators")
first = next(iter(lineart.model.state_dict().values()))
result = {
    "lineart": (type(lineart.model).__name__, drawn.size, drawn.mode),
    "seeded": bool((first == next(iter(again.model.state_dict().values()))).all()),
    "pose": [type(part.model).__name__ for part in
             (pose.body_estimation, pose.hand_estimation, pose.face_estimation)],
}
try:
    hf_hub_download("lllyasviel/Annotators", "sk_model.pth")
except LocalEntryNotFoundError as error:
    result["refused"] = str(error)
"""


@pytest.mark.slow  # builds four annotator networks at their real sizes (about 0.5 GB)
def test_annotator_files_load_into_controlnet_aux_classes(tmp_path):
    outcome, value = in_child(activated, str(tmp_path), ANNOTATORS)
    assert outcome == "returned", value
    result, records = value
    assert result["lineart"] == ("UnetGenerator", (64, 64), "RGB")
    assert result["seeded"]  # the same URL makes the same weights
    assert result["pose"] == ["bodypose_model", "handpose_model", "FaceNet"]
    assert "lllyasviel/Annotators/resolve/main/sk_model.pth" in result["refused"]
    made = [line for line in records if "seeded random weights" in line]
    assert len(made) == 5  # netG.pth twice, then the body, hand and face files
    assert made[0].startswith(
        "hf_hub_download https://huggingface.co/lllyasviel/Annotators/resolve/main/netG.pth"
        " -> controlnet_aux's UnetGenerator(3, 1, 8, 64)"
    )
