from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from breaklint.findings import Applicability, Fix, Severity
from breaklint.fixes import offer
from breaklint.rule import FixExample, Outline, Rule
from breaklint.syntax import dotted

if TYPE_CHECKING:
    import libcst as cst

    from breaklint.rewrites import Rewrite, Rewritten


def _plain_dict(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `plain-dict` fix: the class called (`Message` of `Message(kind="x")`) becomes
    `dict`."""
    import libcst as cst

    if not isinstance(node, cst.Name | cst.Attribute):
        return None
    return cst.Name("dict", lpar=node.lpar, rpar=node.rpar)


class OptionalKeyTypedDict(Rule):
    code = "BL515"
    name = "optional-key-typed-dict"
    severity = Severity.ERROR
    message = (
        "`{call}(...)` makes a TypedDict with optional keys (`total=False` or `NotRequired`, "
        "its own or a base's): Dynamo cannot make one and breaks the graph here"
    )
    hint = (
        "make the same object as a plain dict, `dict(...)` with the same arguments: a "
        "TypedDict's instances are dicts"
    )
    fix_applicability = Applicability.SAFE
    rewrites: ClassVar[Mapping[str, Rewrite]] = {"plain-dict": _plain_dict}
    fix_safety = """
Safe fix: the class called becomes `dict`, with the same arguments. Calling a TypedDict class
makes a plain `dict` (its instances are not of the class: `type(Message(kind="x")) is dict`),
so the object made is the same; Dynamo traces `dict(...)`. A type checker reads the new
expression as a `dict`, not the TypedDict: annotate the name it is bound to
(`message: Message = dict(...)`) where the declared type matters. No fix where `dict` means
something else in the function or module.
"""
    what = """
Flags, in compiled code, a call of a TypedDict class of the linted tree that has optional keys:
declared with `total=False` (keys not marked `Required[...]`), or with a key marked
`NotRequired[...]`, in the class or in a TypedDict it derives from. A TypedDict whose keys are
all required is not flagged: Dynamo makes it as the dict it is. Not seen statically: a
TypedDict made with the functional form (`Message = TypedDict("Message", {...}, total=False)`),
or one defined outside the linted tree.
"""
    why = """
Dynamo 2.13 makes a TypedDict's instance only when every key is required; for a class with
optional keys it gives up on the call ("TypedDict with optional keys", GB0257) and breaks the
graph there. The class's `__optional_keys__` decides, whatever the keys passed.
"""
    example = """
import torch
from typing import TypedDict


class Step(TypedDict, total=False):
    value: torch.Tensor
    scale: float


def stepped(x):
    step = Step(value=x * 2, scale=0.5)
    return step["value"] * step["scale"]


compiled = torch.compile(stepped)
"""
    use_instead = """
import torch
from typing import TypedDict


class Step(TypedDict, total=False):
    value: torch.Tensor
    scale: float


def stepped(x):
    step: Step = dict(value=x * 2, scale=0.5)
    return step["value"] * step["scale"]


compiled = torch.compile(stepped)
"""
    probe = "(stepped, (torch.randn(8),))"
    gb_ids = ("GB0257",)
    fix_examples = (
        FixExample(
            before="""
import torch
from typing import NotRequired, TypedDict


class Message(TypedDict):
    value: torch.Tensor
    note: NotRequired[str]


def sent(x):
    message = Message(value=x + 1, note="sent")
    return message["value"] * 2


compiled = torch.compile(sent)
""",
            after="""
import torch
from typing import NotRequired, TypedDict


class Message(TypedDict):
    value: torch.Tensor
    note: NotRequired[str]


def sent(x):
    message = dict(value=x + 1, note="sent")
    return message["value"] * 2


compiled = torch.compile(sent)
""",
            probe="(sent, (torch.randn(4),))",
        ),
    )

    @classmethod
    def may_report(cls, outline: Outline) -> bool:
        return bool(outline.function.optional_key_dicts)

    def visit_Call(self, node: ast.Call) -> None:
        called = dotted(node.func)
        if called is None or called not in self.context.facts.optional_key_dicts:
            return
        facts = self.context.facts
        fix = None
        if "dict" not in facts.names and "dict" not in facts.definitions:
            fix = offer(
                self.context, node.func, "make it with `dict(...)`", "plain-dict",
                self.fix_applicability,
            )  # fmt: skip
        self.report(node, self.message.format(call=called), fix=fix)
