import ast
import sys

from breaklint.findings import Severity
from breaklint.knowledge.curated import CACHED_PROPERTY_LOCKLESS_SINCE
from breaklint.rule import Outline, Rule, RuleContext


class CachedPropertyRead(Rule):
    code = "BL511"
    name = "cached-property-read"
    severity = Severity.ERROR
    message = (
        "`self.{attribute}` is a `functools.cached_property` of an object made in compiled "
        "code: computing it enters the property's `RLock` (Python before 3.12), a context "
        "manager Dynamo cannot enter, so it gives up on the function, which runs eagerly"
    )
    hint = (
        "compute the value in `__init__` (or with a plain `@property`, or a cache of your own "
        "in the instance's `__dict__`), or make the object before the compiled call"
    )
    fix_safety = """
No automatic fix: a cached property is computed once per object on purpose (it may be costly, or
its value may have to stay the same object); computing it in `__init__` or on every read
changes when the work is done, which only the author can weigh.
"""
    what = """
Flags the first read, in each method in compiled code, of `self.<name>` where `<name>` is a
`functools.cached_property` of the class (or one it inherits from the project), and the class
has an `__init__` that compiled code calls: an object made while compiling has not computed
the value yet. Not flagged on Python 3.12 and later, whose `cached_property` has no lock, nor
for objects made only outside compiled code, whose value an eager call may already have
computed and stored.
"""
    why = """
Before Python 3.12, `functools.cached_property.__get__` computes the value inside `with
self.lock:`, an `RLock`. Dynamo 2.13 does not know how to enter an `RLock` ("Unsupported context
manager") and cannot resume inside the getter, so it skips the whole frame: the function that
reads the property runs eagerly, with no graph. Once the value is computed it sits in the
instance's `__dict__` and reads no longer run the getter, which is why only new objects break
every time.
"""
    example = """
import functools
import math

import torch


class Truncated:
    def __init__(self, loc, scale):
        self.loc = loc
        self.scale = scale

    @functools.cached_property
    def log_norm(self):
        return self.scale.log() + 0.5 * math.log(2 * math.pi)

    def log_prob(self, x):
        return -0.5 * ((x - self.loc) / self.scale) ** 2 - self.log_norm


def density(loc, scale, x):
    return Truncated(loc, scale).log_prob(x)


compiled = torch.compile(density)
"""
    use_instead = """
import math

import torch


class Truncated:
    def __init__(self, loc, scale):
        self.loc = loc
        self.scale = scale
        self.log_norm = scale.log() + 0.5 * math.log(2 * math.pi)

    def log_prob(self, x):
        return -0.5 * ((x - self.loc) / self.scale) ** 2 - self.log_norm


def density(loc, scale, x):
    return Truncated(loc, scale).log_prob(x)


compiled = torch.compile(density)
"""
    probe = "(density, (torch.zeros(3), torch.ones(3), torch.randn(3)))"
    gb_ids = ("GB0142",)

    @classmethod
    def may_report(cls, outline: Outline) -> bool:
        return sys.version_info[:2] < CACHED_PROPERTY_LOCKLESS_SINCE and bool(
            outline.function.cached_reads
        )

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        self._reported = False  # Dynamo gives up at the first read: later ones never run

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if (
            not self._reported
            and isinstance(node.ctx, ast.Load)
            and isinstance(node.value, ast.Name)
            and node.value.id == "self"
            and f"self.{node.attr}" in self.context.cached_reads
        ):
            self.report(node, self.message.format(attribute=node.attr))
            self._reported = True
