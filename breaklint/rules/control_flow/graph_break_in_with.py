import ast

from breaklint.findings import Applicability, Fix, Severity
from breaklint.fixes import nullcontext_fix
from breaklint.knowledge.curated import RESUMELESS_CONTEXT_MANAGERS
from breaklint.rule import FixExample
from breaklint.rules.control_flow._frame_skip import BodySkip
from breaklint.syntax import contains, iter_nodes

# What changes the warnings filters: inside `catch_warnings()` for compiled runs too, it would
# change them for good once that manager is not entered while compiling.
FILTER_CHANGES = frozenset(
    {"warnings.simplefilter", "warnings.filterwarnings", "warnings.resetwarnings"}
)

# A page example: a break in `catch_warnings()` whose filter change runs only eagerly.
_CATCHING = """
import warnings

import torch


def scaled(x):
    y = x * 2
    with warnings.catch_warnings():
        if not torch.compiler.is_compiling():
            warnings.simplefilter("ignore")
        print("scaling", x.shape)
        y = y.relu()
    return y + 1


compiled = torch.compile(scaled)
"""


class GraphBreakInWith(BodySkip):
    code = "BL207"
    name = "graph-break-in-with"
    severity = Severity.ERROR
    message = (
        "graph break inside a `with` block ({codes}) whose context manager Dynamo cannot "
        "enter again after a break: it skips the whole frame and `{function}` runs eagerly, "
        "with no graph at all"
    )
    hint = "make the break traceable (see {codes}) or move it out of the block"
    fix_safety = """
Unsafe fix: `with warnings.catch_warnings():` (no arguments, no `as`) becomes `with
contextlib.nullcontext() if torch.compiler.is_compiling() else warnings.catch_warnings():`.
Dynamo resumes after a break inside `nullcontext()` (measured on 2.13), so the frame is no
longer skipped; the break itself stays, with its own rule's fix. Eager runs enter
`catch_warnings()` as before; compiled runs do not, so a warning raised in the block is shown
where the block's filters would have hidden it. Offered only where the block changes no
warnings filter outside `if not torch.compiler.is_compiling():` (BL501 guards such a change),
since without `catch_warnings()` the change would last after the block. No fix for
`contextlib.suppress(...)` (compiled runs would raise what it swallows) nor for
`contextlib.ExitStack()` (the block calls its methods); moving the statement out of the block
would run it outside the context the code asked for. The break's own rule offers a fix where
one exists; once it is fixed, this finding goes too.
"""
    what = """
Flags the first graph break in the body of each `with` statement of a compiled function that
enters one of the standard-library context managers Dynamo 2.13 cannot resume in:
`warnings.catch_warnings()`, `contextlib.suppress(...)` and `contextlib.ExitStack()`, in
addition to the finding for the break itself. As for BL204, once such a break certainly skips
the frame, the breaks other rules find on later lines become info, and after a break that may
skip it (a warning), the errors on later lines become warnings. As for BL202, a break that is a
warning only because a configuration decides its `if` is certain where that branch is taken.
Breaks in a loop inside the block are BL202's. The grad modes, autocast and
`contextlib.nullcontext()` resume after a break in their block (measured) and are not flagged.
"""
    why = """
After a graph break Dynamo resumes the function in a new frame that starts after the breaking
instruction, and re-enters the context managers around it there. It can rebuild the few it
models (the grad modes, autocast, `nullcontext`); for any other object it entered by tracing
its `__enter__` (`warnings.catch_warnings`, `contextlib.suppress`, `contextlib.ExitStack`) it
has no way to rebuild it ("Reconstruction failure", "Failed to trace builtin operator"): it
gives up on the whole frame, and the function runs fully eagerly (measured with torch 2.13 and
Python 3.11).
"""
    example = """
import warnings

import torch


def scaled(x):
    y = x * 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scale = y.sum().item()
    return y * scale


compiled = torch.compile(scaled)
"""
    use_instead = """
import torch


def scaled(x):
    y = x * 2
    scale = y.sum()
    return y * scale


compiled = torch.compile(scaled)
"""
    probe = "(scaled, (torch.randn(8),))"
    gb_ids = ("GB0092",)
    fix_applicability = Applicability.UNSAFE
    fix_examples = (
        FixExample(
            _CATCHING,
            _CATCHING.replace("import torch\n", "import torch\nimport contextlib\n").replace(
                "with warnings.catch_warnings():",
                "with contextlib.nullcontext() if torch.compiler.is_compiling() else "
                "warnings.catch_warnings():",
            ),
            probe="(scaled, (torch.randn(8),))",
            counts=(2, 1),  # the `print` still breaks, but the frame resumes after it
        ),
    )

    def skip_fix(self, node: ast.AST) -> Fix | None:
        block = next((b for b in reversed(self.blocks) if contains(b, node)), None)
        if not isinstance(block, ast.With) or len(block.items) != 1:
            return None
        item = block.items[0]
        manager = item.context_expr
        if (
            item.optional_vars is not None
            or not isinstance(manager, ast.Call)
            or manager.args
            or manager.keywords
            or self.context.facts.resolve(manager.func) != "warnings.catch_warnings"
            or self._changes_filters(block.body)
        ):
            return None
        return nullcontext_fix(self.context, manager, self.fix_applicability)

    def _changes_filters(self, body: list[ast.stmt]) -> bool:
        """Whether `body` changes the warnings filters other than under `if not
        torch.compiler.is_compiling():` (or another test false while compiling)."""
        facts = self.context.facts
        for statement in body:
            if isinstance(statement, ast.If) and facts.false_when_compiling(statement.test):
                if self._changes_filters(statement.orelse):
                    return True
                continue
            for node in iter_nodes(statement):
                if isinstance(node, ast.Call) and facts.resolve(node.func) in FILTER_CHANGES:
                    return True
        return False

    def visit_With(self, node: ast.With | ast.AsyncWith) -> None:
        managers = [item.context_expr for item in node.items]
        if any(
            isinstance(manager, ast.Call)
            and self.context.facts.resolve(manager.func) in RESUMELESS_CONTEXT_MANAGERS
            for manager in managers
        ):
            self.blocks.append(node)

    visit_AsyncWith = visit_With
