"""The `import torch` a fix adds: the fix engine shows libcst's AddImportsVisitor only the
file's opening statements; the text must be what the visitor gives on the whole file."""

from __future__ import annotations

import pytest

cst = pytest.importorskip("libcst")

from libcst.codemod import CodemodContext  # noqa: E402
from libcst.codemod.visitors import AddImportsVisitor  # noqa: E402

from breaklint.fixer import _with_torch_import  # noqa: E402

CLASS = "class Net:\n    def forward(self, x):\n        return x\n"
SHAPES = {
    "docstring, imports, class": f'"""Doc."""\nimport os\nimport sys\n{CLASS}',
    "docstring then class": f'"""Doc."""\n{CLASS}',
    "class first": CLASS,
    "class first, comment above": f"# a comment\n{CLASS}",
    "imports then a comment above the class": f"import os\n# about Net\n{CLASS}",
    "imports, an empty line, the class": f"import os\n\n{CLASS}",
    "future import, imports": f"from __future__ import annotations\nimport os\n{CLASS}",
    "imports only": "import os\nfrom typing import Any\n",
    "a statement first": f"x = 1\nimport os\n{CLASS}",
    "two statements on a line": f"import os; import sys\n{CLASS}",
    "docstring only": '"""Doc."""\n',
    "strict flag": f"__strict__ = True\nimport os\n{CLASS}",
    "function first, decorated": "@decorate\ndef f():\n    pass\nimport os\n",
    "imports of torch's parts": f"import torch.nn as nn\nfrom torch import Tensor\n{CLASS}",
    "header comment": f"# Copyright\n\nimport os\n\n\n{CLASS}",
    "crlf": f"import os\r\n\r\n{CLASS}".replace("\n", "\r\n").replace("\r\r\n", "\r\n"),
}


def _whole_module(text: str) -> str:
    context = CodemodContext()
    AddImportsVisitor.add_needed_import(context, "torch")
    return AddImportsVisitor(context).transform_module(cst.parse_module(text)).code


@pytest.mark.parametrize("text", SHAPES.values(), ids=SHAPES.keys())
def test_the_import_is_added_as_the_visitor_adds_it_to_the_whole_file(text: str) -> None:
    expected = _whole_module(text)
    assert "import torch" in expected
    assert _with_torch_import(cst.parse_module(text)).code == expected
