from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from breaklint.findings import Applicability, Fix, Severity
from breaklint.fixes import offer
from breaklint.knowledge.curated import UNTRACEABLE_TENSOR_METHODS, UNTRACEABLE_TORCH_FUNCTIONS
from breaklint.rule import FixExample, Rule, called

if TYPE_CHECKING:
    import libcst as cst

    from breaklint.rewrites import Rewrite, Rewritten

# Old code's wrapper: `Variable(t)` gives a tensor sharing `t`'s memory, without its history.
VARIABLE = "torch.autograd.Variable"
# TorchScript's type refinement: eagerly the builtin `isinstance` for a class that is not a
# typing generic (`List[int]` has a container check of its own).
JIT_ISINSTANCE = "torch.jit.isinstance"


def _detach(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `detach` fix: `Variable(t)` becomes `t.detach()`."""
    import libcst as cst

    from breaklint.rewrites import method

    if not isinstance(node, cst.Call) or len(node.args) != 1 or node.args[0].star:
        return None
    return method(node.args[0].value, "detach").with_changes(lpar=node.lpar, rpar=node.rpar)


def _builtin_isinstance(node: cst.CSTNode, fix: Fix) -> Rewritten | None:
    """The `isinstance` fix: `torch.jit.isinstance(x, T)` becomes `isinstance(x, T)`."""
    import libcst as cst

    if not isinstance(node, cst.Call):
        return None
    return node.with_changes(func=cst.Name("isinstance"))


# Typing's generics by their bare names (`from typing import List`): `torch.jit.isinstance`
# checks their elements, or refuses them bare.
_TYPING_GENERICS = frozenset({"List", "Dict", "Tuple", "Optional", "Union", "Sequence"})


class UntraceableTorchCall(Rule):
    code = "BL509"
    name = "untraceable-torch-call"
    words = called(*UNTRACEABLE_TORCH_FUNCTIONS) | frozenset(UNTRACEABLE_TENSOR_METHODS)
    severity = Severity.ERROR
    message = (
        "`{call}` is a torch call Dynamo does not put in a graph (autograd's `grad` and "
        "`backward`, sparse tensors, storages); it breaks the graph here to run it eagerly"
    )
    fix_applicability = Applicability.SAFE
    rewrites: ClassVar[Mapping[str, Rewrite]] = {
        "detach": _detach,
        "isinstance": _builtin_isinstance,
    }
    fix_safety = """
Safe fix: `Variable(t)` with one argument and no keywords becomes `t.detach()`, which is what
the constructor gives since torch 0.4 (a tensor sharing `t`'s memory and version counter,
without its autograd history, not requiring grad), and which Dynamo traces. `Variable(t,
requires_grad=True)` and the legacy keywords get no fix. `torch.jit.isinstance(x, T)` whose `T`
is a class named as such (or a tuple of them), not a typing generic (`List[int]`, `Optional`),
becomes the builtin `isinstance(x, T)`, which is what `torch.jit.isinstance` calls for such a
type outside TorchScript, and which Dynamo traces. The other calls have no automatic
fix: taking gradients, running the backward pass or building sparse tensors has to move out of
the compiled function, around the call of the compiled code, which changes the code around it.
"""
    fix_examples = (
        FixExample(
            before="""
import torch
from torch.autograd import Variable


def shifted(x):
    offset = Variable(torch.ones(4))
    return x + offset


compiled = torch.compile(shifted)
""",
            after="""
import torch
from torch.autograd import Variable


def shifted(x):
    offset = torch.ones(4).detach()
    return x + offset


compiled = torch.compile(shifted)
""",
            probe="(shifted, (torch.randn(4),))",
        ),
        FixExample(
            before="""
import torch


def merged(x, skip=None):
    if skip is not None and torch.jit.isinstance(skip, torch.Tensor):
        return torch.cat([x, skip], dim=1)
    return x


compiled = torch.compile(merged)
""",
            after="""
import torch


def merged(x, skip=None):
    if skip is not None and isinstance(skip, torch.Tensor):
        return torch.cat([x, skip], dim=1)
    return x


compiled = torch.compile(merged)
""",
            probe="(merged, (torch.randn(2, 3), torch.randn(2, 3)))",
        ),
    )
    what = """
Flags, in compiled code, `torch.autograd.grad(...)`, `torch.autograd.Variable(...)` (old code's
wrapper, `from torch.autograd import Variable`), `torch.sparse_coo_tensor(...)`,
`torch.nn.utils.rnn.pack_padded_sequence(...)` and `pack_sequence(...)`, `F.ctc_loss(...)` (and
`torch.ctc_loss`), `torch.utils.checkpoint.checkpoint_sequential(...)`, TorchScript's
`torch.jit.isinstance(x, T)`, and `t.to_sparse()`,
`loss.backward()`, `t.storage()`, `t.untyped_storage()`, `t.resize_(...)` and
`t.resize_as_(...)` on a tensor (a buffer an observer resizes to its statistics' shape, a local
sized in place): calls Dynamo 2.13 does not trace with its default settings.
An optimizer's and a scheduler's methods have a rule of their own (BL510).
"""
    why = """
`torch.autograd.grad` runs the backward pass from inside the forward; Dynamo traces autograd
calls only with `torch._dynamo.config.trace_autograd_ops` on, off by default (GB9186);
`Tensor.backward()` in a compiled training step is unsupported (GB0123); the constructor of
`Variable`, which torch keeps for old code, is a function Dynamo skips (GB0007). Sparse
tensors cannot be fake tensors: building one is a call Dynamo skips (GB0007), and a sparse
tensor that crosses into a traced frame makes Dynamo give up on that frame ("Attempted to
wrap sparse Tensor", GB0015). A storage is the memory behind a tensor, which a fake tensor does
not have: `t.storage()` returns no tensor (GB0208) and `t.untyped_storage()` is an unsupported
method (GB0156). Packing a padded batch into a `PackedSequence` is a function Dynamo skips
(GB0007), and the CTC loss is an operator Dynamo treats as one of dynamic output shape (GB0036).
`torch.jit.isinstance`, the type refinement TorchScript reads, is a function Dynamo skips
(GB0007) where the builtin `isinstance` traces.
Resizing a tensor in place changes its storage under the graph: `resize_` and `resize_as_` are
methods Dynamo does not trace (GB0126, GB0127; on an input or a buffer it breaks on getting the
method, GB0148).
"""
    example = """
import torch


def input_gradient(x):
    y = (x * x).sum()
    (grad,) = torch.autograd.grad(y, x, create_graph=True)
    return grad + 1


compiled = torch.compile(input_gradient)
"""
    use_instead = """
import torch


def energy(x):
    return (x * x).sum()


def input_gradient(x):
    grad = torch.func.grad(energy)(x)
    return grad + 1


compiled = torch.compile(input_gradient)
"""
    probe = "(input_gradient, (torch.randn(4, requires_grad=True),))"
    gb_ids = (
        *("GB9186", "GB0123", "GB0007", "GB0015", "GB0208", "GB0156", "GB0036"),
        *("GB0126", "GB0127", "GB0148"),
    )

    def visit_Call(self, node: ast.Call) -> None:
        facts = self.context.facts
        name = facts.resolve(node.func)
        if name in UNTRACEABLE_TORCH_FUNCTIONS:
            hint = UNTRACEABLE_TORCH_FUNCTIONS[name]
            message = self.message.format(call=f"{name}()")
            fix = self._detach_fix(node, name) or self._isinstance_fix(node, name)
            self.report(node, message, hint=hint, fix=fix)
            return
        call = facts.tensor_method(node)
        if call is None or call[1] not in UNTRACEABLE_TENSOR_METHODS:
            return
        receiver, method = call
        if facts.kind(receiver).is_tensor and not facts.rests_on_guess(receiver):
            hint = UNTRACEABLE_TENSOR_METHODS[method]
            self.report(node, self.message.format(call=f".{method}()"), hint=hint)

    def _detach_fix(self, node: ast.Call, name: str) -> Fix | None:
        single = len(node.args) == 1 and not isinstance(node.args[0], ast.Starred)
        if name != VARIABLE or not single or node.keywords:
            return None
        message = "the tensor without its history: `t.detach()`"
        return offer(self.context, node, message, "detach", self.fix_applicability)

    def _isinstance_fix(self, node: ast.Call, name: str) -> Fix | None:
        if name != JIT_ISINSTANCE or len(node.args) != 2 or node.keywords:
            return None
        kind = node.args[1]
        classes = kind.elts if isinstance(kind, ast.Tuple) else [kind]
        resolve = self.context.facts.resolve
        if resolve(ast.Name("isinstance")) != "isinstance":
            return None  # the file binds the name to something else
        for named in classes:
            dotted_name = resolve(named) if isinstance(named, ast.Name | ast.Attribute) else None
            if dotted_name is None or dotted_name.startswith("typing."):
                return None
            if dotted_name.rpartition(".")[2] in _TYPING_GENERICS:
                return None
        message = "the builtin check Dynamo traces: `isinstance(x, T)`"
        return offer(self.context, node, message, "isinstance", self.fix_applicability)
