"""What Dynamo 2.13 really does once it skips a frame (measured for the precision of the
findings after a skip; see the session 20 precision report): the skip is sticky. Dynamo marks
the function's code as skipped, so later calls run it eagerly whatever way they take, and a
break on a way the skipping call did not take is traced (and breaks) only where a call takes
it before any call skips the frame. mirnet's `select_up_down` shows it: its `else` way is
never traced once a call took the `if` way, whose f-string skipped the frame."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch", reason="Dynamo decides what breaks: needs torch")


def _either_way(x, up):
    if up:
        for i in range(2):
            print("up", i)  # a break in a loop: Dynamo skips the frame
            x = x + 1
        return x
    print("down")  # a break where Dynamo traces it
    return x - 1


def _breaks(compiled, *args) -> list[str]:
    from torch._dynamo.utils import counters

    counters.clear()
    compiled(*args)
    return [reason.splitlines()[0] for reason in counters["graph_break"]]


def test_a_skipped_frame_stays_skipped_for_the_calls_after() -> None:
    torch._dynamo.reset()
    compiled = torch.compile(_either_way, backend=lambda gm, inputs: gm.forward)
    _breaks(compiled, torch.randn(2), True)  # skips the frame (in the loop)
    assert _breaks(compiled, torch.randn(2), False) == []  # eager: the `print` is no break
    torch._dynamo.reset()
    compiled = torch.compile(_either_way, backend=lambda gm, inputs: gm.forward)
    assert _breaks(compiled, torch.randn(2), False) == ["Failed to trace builtin operator"]
