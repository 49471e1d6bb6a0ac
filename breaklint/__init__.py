"""breaklint: find where torch.compile (TorchDynamo) will break a model into several graphs."""

__version__ = "0.1.0"

from breaklint.calls import Call, Calls

__all__ = ["Call", "Calls", "__version__"]
