"""The `import torch` a fix adds: the fix engine shows libcst's AddImportsVisitor only the
file's opening statements; the text must be what the visitor gives on the whole file."""

from __future__ import annotations

import json

import pytest

cst = pytest.importorskip("libcst")

from libcst.codemod import CodemodContext  # noqa: E402
from libcst.codemod.visitors import AddImportsVisitor  # noqa: E402

from breaklint.fixer import _with_imports  # noqa: E402

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
    assert _with_imports(cst.parse_module(text), ("torch",)).code == expected


MODEL = "class Net(nn.Module):\n    def forward(self, x):\n        print(x)\n        return x\n"
# Openings of files whose fix adds `import torch`: JSON takes the import from the opening
# statements alone (or from the whole file where they cannot be taken alone).
OPENINGS = {
    "docstring": '"""Doc."""\nfrom torch import nn\n',
    "comments above": "# Copyright\nfrom torch import nn\n\n# about Net\n",
    "future import": "from __future__ import annotations\nfrom torch import nn\nimport os\n",
    "two statements on a line": "from torch import nn; import os\n",
    "decorated class": "import functools\nfrom torch import nn\n\n\n@functools.total_ordering\n",
    "a statement first": "x = 1\nfrom torch import nn\n",
    "compound first": "try:\n    import os\nexcept ImportError:\n    pass\nfrom torch import nn\n",
    "crlf": "import os\r\nfrom torch import nn\r\n\r\n",
}


@pytest.mark.parametrize("opening", OPENINGS.values(), ids=OPENINGS.keys())
def test_json_edits_make_what_fix_writes(breaklint, tmp_path, opening: str) -> None:
    ending = "\r\n" if "\r\n" in opening else "\n"
    text = opening + MODEL.replace("\n", ending)
    path = tmp_path / "model.py"
    path.write_bytes(text.encode())
    report = json.loads(breaklint("model.py", "--output-format", "json").stdout)
    (finding,) = report["findings"]
    assert finding["fix"]["adds_torch_import"] is True
    lines = text.splitlines(keepends=True)
    for edit in sorted(finding["fix"]["edits"], key=lambda e: -e["line"]):
        lines[edit["line"] - 1 : edit["end_line"] - 1] = [edit["content"]]
    assert breaklint("model.py", "--fix", "--unsafe-fixes").returncode == 0
    assert "".join(lines) == path.read_bytes().decode()
    assert path.read_bytes().decode().count("import torch") == 1


# A fix whose code names two modules the file does not import: torch and contextlib.
LOCKED = (
    "from threading import Lock\n\nfrom torch import nn\n\n\n"
    "class Net(nn.Module):\n"
    "    def forward(self, x, lock=None):\n"
    "        if lock is None:\n"
    "            lock = Lock()\n"
    "        with lock:\n"
    "            y = x * 2\n"
    "        return y\n"
)


def test_json_edits_of_a_fix_adding_two_imports_make_what_fix_writes(breaklint, tmp_path) -> None:
    path = tmp_path / "model.py"
    path.write_text(LOCKED)
    report = json.loads(breaklint("model.py", "--output-format", "json").stdout)
    (fix,) = [finding["fix"] for finding in report["findings"] if finding["fix"]]
    assert (fix["adds_torch_import"], fix["adds_imports"]) == (True, ["contextlib"])
    lines = LOCKED.splitlines(keepends=True)
    for edit in sorted(fix["edits"], key=lambda e: -e["line"]):
        lines[edit["line"] - 1 : edit["end_line"] - 1] = [edit["content"]]
    assert breaklint("model.py", "--fix", "--unsafe-fixes").returncode == 0
    written = path.read_text()
    assert "".join(lines) == written
    assert written.count("import torch\n") == 1
    assert written.count("import contextlib\n") == 1
    assert "lock = contextlib.nullcontext() if torch.compiler.is_compiling() else Lock()" in written


@pytest.mark.parametrize(
    ("use", "fixed"),
    [
        ("        with lock:\n            y = x * 2\n", True),
        ("        lock.acquire()\n        y = x * 2\n        lock.release()\n", False),
        ("        self.lock = lock\n        y = x * 2\n", False),
    ],
    ids=["entered", "acquired", "kept"],
)
def test_a_lock_becomes_a_null_context_only_where_the_function_only_enters_it(
    breaklint, tmp_path, use: str, fixed: bool
) -> None:
    # A null context has no `acquire`, and a lock kept on the object may be entered by code
    # that runs eagerly in another thread.
    head, _, _ = LOCKED.partition("        with lock:\n")
    (tmp_path / "model.py").write_text(f"{head}{use}        return y\n")
    report = json.loads(breaklint("model.py", "--output-format", "json").stdout)
    # The lock's making (line 9) is the finding that takes the fix; a made lock's `acquire`
    # and `release` break too (Dynamo 2.13 traces neither method) and have no fix.
    (lock,) = [f for f in report["findings"] if f["code"] == "BL501" and f["line"] == 9]
    assert (lock["fix"] is not None) is fixed
