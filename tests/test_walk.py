"""`syntax.walk`, the one traversal every rule shares: what it visits of a function."""

from __future__ import annotations

import ast

from breaklint.syntax import Visitor, walk

SOURCE = """
@decorate(torch.ones(1) | flags)
def forward(self, x: torch.Tensor | None = None, *rest: Tuple[int], k: a.b = c.d) -> x.y:
    def inner(y: torch.Tensor | None) -> p.q:
        z: Sized[w] = y
        return z | y
    return inner(x)
"""


class Recorder(Visitor):
    def __init__(self) -> None:
        self.seen: list[str] = []

    def visit_arg(self, node: ast.arg) -> None:
        self.seen.append(f"arg {node.arg}")

    def visit_BinOp(self, node: ast.BinOp) -> None:
        self.seen.append(f"BinOp {ast.unparse(node)}")

    def visit_Subscript(self, node: ast.Subscript) -> None:
        self.seen.append(f"Subscript {ast.unparse(node)}")

    def visit_Attribute(self, node: ast.Attribute) -> None:
        self.seen.append(f"Attribute {ast.unparse(node)}")

    def leave_FunctionDef(self, node: ast.FunctionDef) -> None:
        self.seen.append(f"leave {node.name}")


def visited(annotations: bool) -> list[str]:
    function = ast.parse(SOURCE).body[0]
    recorder = Recorder()
    walk(function, [recorder], annotations=annotations)
    return recorder.seen


def test_the_root_s_own_annotations_are_left_out_not_its_parameters_nor_nested_ones() -> None:
    assert visited(annotations=False) == [
        # its decorators: walked
        "BinOp torch.ones(1) | flags",
        "Attribute torch.ones",
        # its parameters and their defaults, without their annotations or its return's
        "arg self",
        "arg x",
        "arg rest",
        "arg k",
        "Attribute c.d",
        # a function it defines: its annotations run in this frame
        "arg y",
        "BinOp torch.Tensor | None",
        "Attribute torch.Tensor",
        "Attribute p.q",
        "Subscript Sized[w]",
        "BinOp z | y",
        "leave inner",
        "leave forward",
    ]


def test_every_annotation_is_walked_by_default() -> None:
    seen = visited(annotations=True)
    assert "Subscript Tuple[int]" in seen
    assert "Attribute a.b" in seen
    assert "Attribute x.y" in seen
    assert seen.count("BinOp torch.Tensor | None") == 2
    assert set(visited(annotations=False)) < set(seen)
