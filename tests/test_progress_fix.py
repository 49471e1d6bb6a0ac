"""Fixes that keep a progress bar or a message for eager runs only (BL501's tqdm forms, the
guard of a one-line `if verbose: print(...)`, BL507's `nullcontext()` for a subclass of
`warnings.catch_warnings`): where each is offered, and where it is not because compiled code
would then do something else than skip the bar or the message."""

from __future__ import annotations

from pathlib import Path

import pytest

from breaklint.config import Settings
from breaklint.engine import lint_paths


def _fixes(tmp_path: Path, source: str, code: str) -> list[str]:
    """The rewrite of each finding of `code` that offers one, in line order."""
    path = tmp_path / "example.py"
    path.write_text(source, encoding="utf-8")
    findings = lint_paths([str(path)], Settings(root=tmp_path), jobs=1, use_cache=False).findings
    return [f.fix.rewrite for f in findings if f.code == code and f.fix]


BAR = """import torch
from tqdm import tqdm, trange


def run(x, steps):
{body}
    return x


compiled = torch.compile(run)
"""


@pytest.mark.parametrize(
    ("body", "rewrites"),
    [
        ("    for t in tqdm(steps):\n        x = x + t", ["plain-iterable"]),
        ("    for i, t in enumerate(tqdm(steps)):\n        x = x + t * i", ["plain-iterable"]),
        ("    for t, s in zip(tqdm(steps), steps):\n        x = x + t * s", ["plain-iterable"]),
        ("    for t in trange(1, 4, leave=False):\n        x = x + t", ["plain-range"]),
        ("    steps = tqdm(steps)\n    for t in steps:\n        x = x + t", ["guard"]),
        # a bar without its steps, or one whose methods the function calls: compiled code
        # would have nothing to iterate, or call the methods on the plain steps
        ("    for t in tqdm(total=3):\n        x = x + t", []),
        ("    bar = tqdm(steps)\n    for t in bar:\n        x = x + t\n    bar.close()", []),
        ("    steps = tqdm(steps)\n    for t in steps:\n        x = x + t\n    steps.close()", []),
        # not iterated by a `for` statement: what the bar is used for is not known
        ("    total = sum(tqdm(steps))\n    x = x + total", []),
        ("    x = x + sum([t for t in tqdm(steps)])", []),
    ],
)
def test_a_tqdm_bar_is_rewritten_only_where_a_for_statement_only_iterates_it(
    tmp_path: Path, body: str, rewrites: list[str]
) -> None:
    assert _fixes(tmp_path, BAR.format(body=body), "BL501") == rewrites


VERBOSE = """import torch


def scaled(x, verbose=False):
    y = x * 2
{line}
    return y + 1


compiled = torch.compile(scaled)
"""


@pytest.mark.parametrize(
    ("line", "rewrites"),
    [
        ('    if verbose: print("scaled")', ["guard"]),
        ('    if verbose and y.dim() > 1: print("scaled")', []),  # the test calls a method
        ('    if verbose: print("scaled")\n    else: y = y + 1', []),  # an `else` that computes
        ('    if verbose:\n        print("scaled")', ["guard"]),  # its own line: as before
        ('    y = y + 1; print("scaled")', []),  # shares its line with a computation
    ],
)
def test_a_one_line_if_that_only_tells_is_guarded_whole(
    tmp_path: Path, line: str, rewrites: list[str]
) -> None:
    assert _fixes(tmp_path, VERBOSE.format(line=line), "BL401") == rewrites


MANAGERS = """import warnings

import torch


class Quiet(warnings.catch_warnings):
    def __enter__(self):
        super().__enter__()
        warnings.simplefilter("ignore")
        return self


class Unchecked(torch.no_grad):
    pass


def flatten(x):
    with {manager}():
        y = x * 2
    return y


compiled = torch.compile(flatten)
"""


@pytest.mark.parametrize(("manager", "rewrites"), [("Quiet", ["nullcontext"]), ("Unchecked", [])])
def test_only_a_subclass_of_catch_warnings_is_entered_as_nullcontext_while_compiling(
    tmp_path: Path, manager: str, rewrites: list[str]
) -> None:
    """A grad mode's subclass changes what the block computes: no fix."""
    assert _fixes(tmp_path, MANAGERS.format(manager=manager), "BL507") == rewrites
