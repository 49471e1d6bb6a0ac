"""A dict with string keys, filled on the function's straight-line path: each key holds what was
stored under it, so a tensor read back from it breaks where it is turned into a number, and a
Python number does not."""

import torch


def summary(x):
    out = {"total": x.sum(), "count": x.shape[0]}
    out["mean"] = out["total"] / out["count"]
    scale = float(out["count"])
    return float(out["mean"]) * scale  # BREAK BL102


def rewritten(x):
    out = {"total": x.sum(), "count": 3}
    out.update(total=2.0)
    return x * float(out["total"])


compiled_summary = torch.compile(summary)
compiled_rewritten = torch.compile(rewritten, dynamic=False)


def probe_entry_of_a_dict():
    return summary, (torch.arange(6.0),)


def probe_entry_rewritten_by_a_method():
    return rewritten, (), {"x": torch.ones(2, 3)}
