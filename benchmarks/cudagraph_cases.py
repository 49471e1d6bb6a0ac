"""What `torch.compile(mode="reduce-overhead")` says when it runs a graph without CUDA graphs,
case by case (needs a CUDA GPU; the README's "On a GPU" section gives what an H100 printed).

    python benchmarks/cudagraph_cases.py > cases.json

For each case: Dynamo's graphs and breaks (`torch._dynamo.explain`), then three calls of the
reduce-overhead compile (twelve sizes for `dynamic_sizes`) with every record of Inductor's CUDA
graph loggers and its skip counter.
"""

from __future__ import annotations

import json
import logging
import sys
import time
import traceback
from collections.abc import Callable
from typing import Any

import torch
import torch._dynamo
from torch._dynamo.utils import counters

CASES: dict[str, Callable[..., Any]] = {}


def case(function: Callable[..., Any]) -> Callable[..., Any]:
    CASES[function.__name__] = function
    return function


@case
def cpu_op(x):
    return (x * 2).cpu() + 1


@case
def cpu_output(x):
    return x * 2, torch.arange(x.shape[0])


@case
def input_mutation(x):
    x.add_(1)
    return x * 2


class Counting(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.register_buffer("count", torch.zeros(1))

    def forward(self, x):
        self.count.add_(1)
        return x * 2


@case
def buffer_mutation(x):
    return COUNTING(x)


@case
def dynamic_sizes(x):
    return x * 2 + 1


@case
def stream_use(x):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        y = x * 2
    torch.cuda.current_stream().wait_stream(side)
    return y + 1


@case
def event_use(x):
    start = torch.cuda.Event(enable_timing=True)
    start.record()
    y = x * 2
    end = torch.cuda.Event(enable_timing=True)
    end.record()
    return y


@case
def item_captured(x):
    return x * x.sum().item()


@case
def nonzero_captured(x):
    return x[x > 0] * 2


@case
def synchronize(x):
    y = x * 2
    torch.cuda.synchronize()
    return y + 1


CONFIG = {
    "item_captured": {"capture_scalar_outputs": True},
    "nonzero_captured": {"capture_dynamic_output_shape_ops": True},
}
SIZES = {"dynamic_sizes": [8, 8, *range(16, 96, 8)]}


class Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.seen: list[tuple[str, str, str]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.seen.append((record.name, record.levelname, record.getMessage()))


def run(name: str, function: Callable[..., Any], records: Records) -> dict[str, Any]:
    torch._dynamo.reset()
    records.seen.clear()
    counters.clear()
    result: dict[str, Any] = {"config": CONFIG.get(name, {})}
    started = time.perf_counter()
    try:
        with torch._dynamo.config.patch(**CONFIG.get(name, {})):
            explained = torch._dynamo.explain(function)(torch.randn(8, device="cuda"))
            result["graphs"] = explained.graph_count
            result["breaks"] = [str(b.reason)[:400] for b in explained.break_reasons]
            torch._dynamo.reset()
            compiled = torch.compile(function, mode="reduce-overhead")
            for size in SIZES.get(name, [8, 8, 8]):
                compiled(torch.randn(size, device="cuda"))
            torch.cuda.synchronize()
    except Exception:
        result["error"] = traceback.format_exc()[-1500:]
    result["records"] = list(records.seen)
    result["cudagraph_skips"] = counters["inductor"].get("cudagraph_skips", 0)
    result["seconds"] = round(time.perf_counter() - started, 1)
    return result


COUNTING = Counting().cuda() if torch.cuda.is_available() else None


def main() -> int:
    if not torch.cuda.is_available():
        print("cudagraph_cases.py needs a CUDA GPU", file=sys.stderr)
        return 2
    records = Records()
    torch._logging.set_logs(cudagraphs=True)
    for name in list(logging.root.manager.loggerDict):
        if "cudagraph" in name:
            logging.getLogger(name).addHandler(records)
    report: dict[str, Any] = {
        "torch": torch.__version__,
        "python": sys.version.split()[0],
        "gpu": torch.cuda.get_device_name(0),
    }
    for name, function in CASES.items():
        report[name] = run(name, function, records)
        print(name, report[name]["cudagraph_skips"], file=sys.stderr, flush=True)
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
