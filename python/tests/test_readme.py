"""Every Python example of the READMEs runs as written, against the installed package."""

import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
READMES = [ROOT / "README.md", ROOT / "python" / "README.md"]


def examples():
    for readme in READMES:
        for n, block in enumerate(re.findall(r"^```python\n(.*?)^```$", readme.read_text(), re.S | re.M)):
            yield pytest.param(block, id=f"{readme.relative_to(ROOT)}#{n}")


def test_every_readme_has_a_python_example():
    for readme in READMES:
        assert "```python\n" in readme.read_text(), readme


@pytest.mark.parametrize("code", list(examples()))
def test_readme_example_runs(code, capsys):
    exec(compile(code, "<readme>", "exec"), {"__name__": "__readme__"})
