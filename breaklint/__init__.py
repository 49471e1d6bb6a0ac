"""breaklint: find where torch.compile (TorchDynamo) will break a model into several graphs."""

from breaklint.calls import Call, Calls

__version__ = "0.1.0"

# The documentation site's root: MkDocs builds it from docs/ (mkdocs.yml's site_url is this),
# and each rule's page is at rules/<code>-<name>/ under it (`python -m breaklint.pages docs`).
DOCS_URL = "https://breaklint.readthedocs.io/en/latest/"

__all__ = ["DOCS_URL", "Call", "Calls", "__version__"]
