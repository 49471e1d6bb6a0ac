"""What tensors and Python values look like to the static phase, kept by hand for the shipped
torch version: attributes and methods that give Python values or tensors, torch's tensor
factories and the torch namespaces of each kind. `breaklint.tensorness` and
`breaklint.analysis` read them."""

from __future__ import annotations

# Attributes of a tensor (or module) that are Python values fixed at trace time.
PYTHON_ATTRIBUTES = frozenset(
    {
        "shape", "ndim", "dtype", "device", "requires_grad", "training", "is_cuda", "is_leaf",
        "is_sparse", "is_quantized", "is_meta", "is_nested", "layout", "names", "config",
        "itemsize", "nbytes", "is_floating_point", "__class__", "__name__",
    }
)  # fmt: skip
TENSOR_ATTRIBUTES = frozenset({"T", "mT", "H", "mH", "data", "grad", "real", "imag"})
# Methods that return Python values (the value-reading ones are flagged by their own rules).
PYTHON_METHODS = frozenset(
    {
        "size", "dim", "ndimension", "numel", "nelement", "element_size", "stride",
        "storage_offset", "is_contiguous", "is_floating_point", "is_complex", "is_signed",
        "get_device", "data_ptr", "item", "tolist", "untyped_storage", "__len__", "keys",
        "items", "values", "get", "startswith", "endswith", "format", "join", "lower", "upper",
        "is_set_to", "has_names", "is_pinned", "is_shared", "is_inference", "equal", "allclose",
    }
)  # fmt: skip
# Methods that only tensors have: on a value of unknown type they still mean "tensor".
TENSOR_METHODS = frozenset(
    {
        "sum", "mean", "max", "min", "amax", "amin", "argmax", "argmin", "any", "all", "abs",
        "norm", "prod", "std", "var", "cumsum", "cumprod", "exp", "log", "sqrt", "rsqrt",
        "sigmoid", "tanh", "softmax", "log_softmax", "float", "double", "half", "bfloat16",
        "long", "int", "bool", "byte", "to", "view", "reshape", "transpose", "permute",
        "contiguous", "unsqueeze", "squeeze", "flatten", "expand", "expand_as", "repeat",
        "masked_fill", "clamp", "clip", "detach", "clone", "cpu", "cuda", "type_as", "matmul",
        "eq", "ne", "gt", "ge", "lt", "le", "isnan", "isinf", "isfinite", "logical_not",
        "logical_and", "logical_or", "nonzero", "unique", "argsort", "topk", "gather",
        "scatter", "index_select", "masked_select", "where", "round", "floor", "ceil", "pow",
        "neg", "sign", "square", "mul", "add", "sub", "div", "new_zeros", "new_ones",
        "new_empty", "new_full", "new_tensor", "narrow", "roll", "flip", "tril", "triu",
        "chunk", "unbind", "split_with_sizes", "repeat_interleave", "masked_scatter", "lerp",
        "count_nonzero", "median", "mode", "kthvalue", "logsumexp",
    }
)  # fmt: skip
MASK_METHODS = frozenset(
    {
        "bool", "eq", "ne", "gt", "ge", "lt", "le", "isnan", "isinf", "isfinite", "isneginf",
        "isposinf", "logical_not", "logical_and", "logical_or", "logical_xor", "any", "all",
        "isclose", "isin", "signbit", "isreal",
    }
)  # fmt: skip
# Tensor methods whose result has the receiver's dtype (a boolean mask stays one).
DTYPE_KEEPING_METHODS = frozenset(
    {
        "view", "reshape", "unsqueeze", "squeeze", "flatten", "expand", "expand_as", "repeat",
        "transpose", "permute", "contiguous", "clone", "detach", "cpu", "cuda", "flip", "roll",
        "narrow", "tril", "triu", "t", "movedim", "unflatten", "view_as", "reshape_as",
    }
)  # fmt: skip
# Methods only tensors have (numpy arrays and Python containers do not): a parameter they are
# called on is a tensor even where nothing says so.
TENSOR_ONLY_METHODS = frozenset(
    {
        "unsqueeze", "masked_fill", "masked_fill_", "masked_scatter", "new_zeros", "new_ones",
        "new_full", "new_empty", "type_as", "expand_as", "contiguous", "detach", "numel",
        "permute", "size", "dim", "float", "long", "bool", "half", "bfloat16", "softmax",
        "index_select", "masked_select", "unsqueeze_", "view_as", "split_with_sizes",
    }
)  # fmt: skip
# torch functions that make a tensor from Python numbers; any other torch function given
# only Python values (`torch.div(n, 2, rounding_mode="floor")`) is computed at trace time.
TENSOR_FACTORIES = frozenset(
    {
        "tensor", "as_tensor", "asarray", "from_numpy", "zeros", "ones", "empty", "full",
        "arange", "range", "linspace", "logspace", "eye", "rand", "randn", "randint",
        "randperm", "normal", "scalar_tensor", "tril_indices", "triu_indices", "empty_strided",
        "zeros_like", "ones_like", "empty_like", "full_like", "rand_like", "randn_like",
        "randint_like", "stack", "cat", "concat", "concatenate",
    }
)  # fmt: skip
# What makes a sparse tensor (measured on 2.13): Dynamo cannot wrap one as a value of a frame
# (GB0015, "Attempted to wrap sparse Tensor"), so every frame it reaches is skipped where it is
# first read.
SPARSE_TORCH_FUNCTIONS = frozenset({"torch.sparse_coo_tensor"})
SPARSE_METHODS = frozenset({"to_sparse"})
# Methods only sparse tensors have (a dense one raises, measured on 2.13): a parameter they are
# called on is a sparse tensor.
SPARSE_ONLY_METHODS = frozenset({"_indices", "_values", "_nnz", "coalesce", "is_coalesced"})
# torch functions that multiply a sparse matrix, their first argument, by a dense one: what a
# function passes first to one is a sparse tensor where it is one at all (measured on 2.13:
# `hspmm` and `smm` raise on a dense one, `spmm` and `sparse.mm` take it too, and compile it).
SPARSE_FIRST_FUNCTIONS = frozenset({"torch.spmm", "torch.sparse.mm", "torch.hspmm", "torch.smm"})
# torch functions whose result is a Python value or an object, not a tensor.
PYTHON_TORCH_PREFIXES = (
    "torch.is_", "torch.are_", "torch.get_", "torch.has_", "torch.compiler.", "torch.jit.",
    "torch.cuda.", "torch.backends.", "torch.distributed.", "torch._dynamo.", "torch.fx.",
    "torch.finfo", "torch.iinfo", "torch.device", "torch.Size", "torch.dtype", "torch.nn.",
    "torch.autograd.", "torch.utils.", "torch.amp.", "torch.cpu.", "torch.mps.",
    "torch.overrides.", "torch._C.", "torch.library.", "torch.version", "torch.set_",
    "torch.no_grad", "torch.enable_grad", "torch.inference_mode", "torch.autocast",
    "torch.equal", "torch.allclose", "torch.broadcast_shapes",
)  # fmt: skip
TENSOR_TORCH_PREFIXES = ("torch.nn.functional.", "torch.nn.init.")
# Builtins whose result is a Python value (not `super`: `super().forward(x)` is a base class's).
PYTHON_BUILTINS = frozenset(
    {
        "len", "isinstance", "issubclass", "hasattr", "getattr", "callable", "str", "repr",
        "type", "id", "range", "enumerate", "zip", "tuple", "list", "dict", "set", "frozenset",
        "int", "float", "bool", "round", "sorted", "print", "format", "divmod", "hash", "ord",
        "chr", "iter", "next", "reversed", "vars", "dir", "object",
    }
)  # fmt: skip
