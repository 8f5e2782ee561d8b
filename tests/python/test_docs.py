"""The Python examples of docs/python.md, docs/agents.md and the READMEs compile, and every
name they import exists in x402 2.25 and in the installed wheel."""

from __future__ import annotations

import ast
import re

import pytest
from conftest import ROOT

PAGES = ["docs/python.md", "docs/agents.md", "README.md", "crates/python/README.md"]


def examples():
    for page in PAGES:
        for i, code in enumerate(re.findall(r"```python\n(.*?)```", (ROOT / page).read_text(), re.S)):
            yield pytest.param(code, id=f"{page} {i + 1}")


@pytest.mark.parametrize("code", list(examples()))
def test_an_example_compiles_and_its_imports_exist(code):
    tree = compile(code, "example", "exec", ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    imports = [node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))]
    assert imports
    for node in imports:
        exec(compile(ast.Module(body=[node], type_ignores=[]), "example", "exec"), {})
