"""A tensor made a leaf in compiled code (`.detach().requires_grad_()`) that outlives the
function: kept on the object, in a dict on it, or held by a hook the function registers;
not one that only a nested function the function calls reads."""

import torch

from solvers.implicit import called_inside, with_adjoint_hook

compiled_hook = torch.compile(with_adjoint_hook)
compiled_inside = torch.compile(called_inside)
