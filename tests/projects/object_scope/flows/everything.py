"""What the flows export, re-exported whole."""

from flows.layers import *  # noqa: F403
