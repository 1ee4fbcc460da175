"""GL401's reading of a guide's sketch conventions: what they clear, what they leave."""

from __future__ import annotations

import ast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guidelint.rules.gl401_example_syntax_error import _error_past_conventions, not_python_code

# Each a shape held-out sets 5 and 6 found in real guides, none a defect to fix.
SKETCHES = {
    "annotated call": "registry.add(extension_id: str, metadata: dict)\n",
    "annotated call over lines": (
        "manifest = manager.install(\n"
        "    source_dir: Path,\n"
        "    hooks: List[Dict[str, int]] | None = None,\n"
        "    register: bool = True\n"
        ")  # Returns: ExtensionManifest\n"
    ),
    "command-line settings": "policy.path=your-org/your-eo1-checkpoint\n--steps=100\n",
    "placeholders and elided arguments together": (
        "class Config(EnvConfig):\n"
        "    fps: int = <fps>\n"
        "    def create(self, n: int):\n"
        "        from envs.<benchmark> import make\n"
        "        return make(task=self.task, n=n, ...)\n"
    ),
    "prose in braces": (
        "class C(Cache):\n    def __init__(self):\n        {write your own constructor}\n"
    ),
    "prose in brackets": "[Code snippet showing new behavior]\n",
    "indented method": "    def f(self):\n        return 1\n",
    "elided argument alone on a line": "args = Config(\n    ...\n    beta=0.0,\n)\n",
    "elided parameters": (
        "class G:\n    def __init__(self, ..., driver: D | None = None, ...):\n        pass\n"
    ),
    "a last block's body in comments": "async with Server() as server:\n    # Use it...\n",
    "dict entries alone": '# text:\n"content": "sky?"\n\n# image:\n"content": [\n    {"a": 1}\n]\n',
    # Held-out set 7 (crewAI's docs/edge, anthropics/skills).
    "a class body in a comment, code after it": (
        "class L(Base):\n    # ... implementation ...\n\n# Create one\nlistener = L()\n"
    ),
    "function bodies in comments": (
        "@start()\ndef first(self):\n    # ...\n\n@listen(first)\ndef then(self):\n    # ...\n"
    ),
    "handlers elided by a comment": (
        "def run(self):\n    try:\n        return fetch()\n    # Error handling...\n"
    ),
    "except without its try": (
        "except APIStatusError as e:\n    if e.type == 'rate':\n        # wait\n"
        "    elif e.type == 'overloaded':\n        # back off\n"
    ),
    "decorators alone": (
        "# Good\n@feedback(message='Approve?')\n\n# Bad\n@feedback(\n    message='?',\n)\n"
    ),
    "a keyword's value in a comment": (
        "agent = Agent(\n    tools=tools,\n    llm= # pass an llm\n)\n"
    ),
    "elided lambda": "fn = lambda ...: ...\ntool = Tool.from_defaults(fn)\n",
    "annotated call with defaults and comments": (
        "tool.run(\n  objective: str | None = None,  # at most 5000\n"
        "  queries: list[str] | None = None,  # up to 5\n  n: int = 10,\n)\n"
    ),
    "pip with a version specifier": "pip install maxim-py>=3.6.2\n",
    "a method excerpt after module code and a comment": (
        "llm = LLM(model='x')\n\n# Use it in your crew:\n\n"
        "\t@agent\n\tdef analyst(self):\n\t\treturn Agent(llm=llm)\n"
    ),
    # Held-out set 8 (diffusers' docs, agno, OpenHands).
    "a quoted placeholder": 'model_id = <"lora-sdxl-dreambooth-id">\ncard = load(model_id)\n',
    "printed reprs": (
        "spec = pipe.get_component_spec('unet')\nspec\n"
        "ComponentSpec(name='unet', type_hint=<class 'diffusers.models.UNet'>, repo=None)\n"
        "unet = spec.load()\n"
    ),
    "a repr's attribute": (
        "BlockState(\n    image: <PIL.Image.Image image mode=RGB size=512x512 at 0x7F3E>\n)\n"
    ),
    "a repr printed without commas": (
        "PipelineState(\n  values={\n    'prompt': 'a cat'\n    'steps': 25\n  },\n)\n"
    ),
    "a config printed after print()": (
        "pipeline = load()\nprint(pipeline)\n"
        '"StableDiffusionXLPipeline {\n  "_class_name": "StableDiffusionXLPipeline",\n  ...\n"\n'
    ),
    "a config echoed by a bare name": (
        'pipeline.scheduler\nPNDMScheduler {\n  "beta_end": 0.012,\n  "clip_sample": false\n}\n'
    ),
    "a docstring printed": (
        "block = ImageEncoderStep()\nprint(block.doc)\nclass ImageEncodeStep\n\n"
        "  Encode an image into latent space.\n\n  Inputs:\n      image (`PIL.Image`):\n"
    ),
    "a notebook transcript": (
        "# In[1]\nhelp_me('read PDFs')\n\n# Out[1]\n"
        '"Here are the top skills:\n- `pdf_to_text`: [docs]\n"\n'
    ),
    "a log line": (
        "ComponentsManager: adding component 'te_1', but it has duplicate load_id 'x'.\n'te_1'\n"
    ),
    "statistics after an emoji": (
        "⚡️Cache Steps and Residual Diffs Statistics: QwenImagePipeline\n\n"
        "| Cache Steps | Diffs Min |\n|-------------|-----------|\n| 23          | 0.045     |\n"
    ),
    "alternatives separated by an or comment": (
        'container={\n    "skills": ["pptx"]  # one\n    # or\n    "skills": ["pptx", "pdf"]\n}\n'
    ),
    "a diff": (
        "for _ in range(5):\n-    image = pipe(prompt, generator=g)\n"
        "+    image = pipe(prompt, generator=torch.manual_seed(0))\n"
    ),
    # Held-out set 9 (aider): edit blocks, each read as its new code or, a fragment,
    # as a comment.
    "an aider SEARCH/REPLACE edit block, indented as in its file": (
        "tests/test_main.py\n<<<<<<< ORIGINAL\n        with open(p) as f:\n"
        "            main([])\n=======\n        main([], input=pipe)\n>>>>>>> UPDATED\n"
    ),
    "an edit block whose new code is a fragment": (
        'app.py\n<<<<<<< SEARCH\n    return {"a": 1,\n=======\n    return {"a": 2,\n'
        ">>>>>>> REPLACE\n"
    ),
    "an edit block that deletes, then one that adds": (
        "app.py\n<<<<<<< SEARCH\ndef hello():\n    return 1\n=======\n>>>>>>> REPLACE\n\n"
        "app.py\n<<<<<<< SEARCH\n=======\nimport os\n>>>>>>> REPLACE\n"
    ),
    "git conflict markers": ("<<<<<<< HEAD\nx = load(a)\n=======\nx = load(b)\n>>>>>>> feature\n"),
    "elided parameters before plain ones": (
        "def __init__(self, ..., vae, transformer, ...):\n"
        "    self.register_modules(vae=vae, transformer=transformer, ...)\n"
    ),
    # Held-out set 11 (instructor's version-1 post): calls shown with what they return.
    "calls shown with their return type": (
        "client = instructor.from_openai(openai.OpenAI())\n\n"
        'client.create(model="gpt-4", response_model=type[T]) -> T\n'
        'client.chat.completions.create(model="gpt-4", response_model=type[T]) -> list[T]\n'
    ),
    # Held-out set 13 (open-swe's CUSTOMIZATION.md): a dict's other entries, left out.
    "elided dict entries before a new one": (
        "SANDBOX_FACTORIES = {\n    ...\n"
        '    "my_provider": ("agent.integrations.my_provider", "create_sandbox"),\n}\n'
    ),
    "elided dict entries inline and after": (
        'ROUTES = {"a": 1, ...}\nMORE = {\n    "b": 2,  # "{" in a comment\n    ...\n}\n'
    ),
    "elided list items before a new one": 'PLUGINS = [\n    ...\n    "my_plugin",\n]\n',
}


@pytest.mark.parametrize("source", SKETCHES.values(), ids=list(SKETCHES))
def test_sketch_conventions_are_no_syntax_error(source):
    with pytest.raises(SyntaxError):
        ast.parse(source)  # each fails as Python: the case is real
    assert not_python_code(source)


# Real defects beside those conventions: they stay reported, at the defect.
DEFECTS = {
    "missing comma after an elided argument": (
        "p = Pipeline(\n    ...\n    steps=[Normalize(stats=...)]\n    to_output=f,\n)\n",
        3,
    ),
    "first line lost its indentation": ('a["x"] = x\n    a["y"] = y\n', 2),
    "unclosed call in a template": ("fps = <fps>\nrun(task=<task>, n=1\n", 2),
    "lambda is no annotated call": ("f = map(lambda x, y: x y, items)\n", 1),
    # Held-out set 7's true findings, beside the conventions it taught.
    "apostrophe in a single-quoted string after an elided body": (
        "class L(Base):\n    # ... implementation ...\n\nl = L(text='Don't')\n",
        4,
    ),
    "mismatched quotes after handlers without try": (
        'except E as e:\n    # handle it\nquery = {"a": \'b"}\n',
        3,
    ),
    "escaped triple quotes": ('prompt = \\"""\nHello\n\\"""\n', 1),
    # Labelled true in the corpus: a body of comments with code after it, not a def's.
    "an if body of comments, code after it": (
        "for item in items:\n    if item.ok:\n        # process\n    ...\n",
        4,
    ),
    "a try body of comments before its handler": (
        "work = None\ntry:\n    # do work\nexcept Exception:\n    pass\n",
        4,
    ),
    "a comment in place of a required body mid-call": ("run(\n    llm= # pass an llm\n", 1),
    # Held-out set 8's true findings, beside the output conventions it taught.
    "a call cut after a call that prints nothing": (
        "unet.eval()\nunet.to(memory\n_format=torch.channels_last)\n",
        2,
    ),
    "code after print() that does not parse": ("print(x)\nif ready\n    go()\n", 2),
    "a missing comma in a class's call with double quotes": (
        'Agent(\n    role="a"\n    goal="b"\n)\n',
        2,
    ),
    "one comma missing among others in a repr-like call": (
        "Config(\n    name='a',\n    size=1\n    mode='b',\n)\n",
        3,
    ),
    "an unclosed call before an edit block": (
        "print(os.getcwd()\napp.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n",
        1,
    ),
    "an error after an edit block": (
        "app.py\n<<<<<<< SEARCH\nx = 1\n=======\ny = 2\n>>>>>>> REPLACE\nif ready\n    go()\n",
        7,
    ),
    "a typo after an or comment's alternative": (
        "f(\n    a=1\n    # or\n    a=2\n)\npipe line= load()\n",
        6,
    ),
    # A `-> T` after an assignment or a `def` line without its colon is no call's sketch.
    "a return type after an assignment": ("user = client.create(model=m) -> User\n", 1),
    "an unclosed call before a call's return type": (
        "x = load(path\nclient.create(model=m) -> T\n",
        1,
    ),
    "a missing comma after a dict's elided entries": (
        'F = {\n    ...\n    "a": ("m", "make")\n    "b": ("n", "make"),\n}\n',
        3,
    ),
}


@pytest.mark.parametrize(("source", "line"), DEFECTS.values(), ids=list(DEFECTS))
def test_a_defect_beside_the_conventions_is_reported_where_it_is(source, line):
    assert not not_python_code(source)
    try:
        ast.parse(source)
    except SyntaxError as error:
        assert _error_past_conventions(source, error).lineno == line


BROKEN_TAILS = ["x = (", "def f(:", "y = [1, 2", "if True\n    pass", "return = 3"]


@settings(max_examples=60, deadline=None)
@given(sketch=st.sampled_from(sorted(SKETCHES)), tail=st.sampled_from(BROKEN_TAILS))
def test_conventions_never_hide_a_later_real_error(sketch, tail):
    """A sketch followed by broken code (at its own indentation) is still reported."""
    source = SKETCHES[sketch]
    margin = source[: len(source) - len(source.lstrip())]
    broken = source + "\n" + "\n".join(margin + line for line in tail.split("\n")) + "\n"
    assert not not_python_code(broken), broken
