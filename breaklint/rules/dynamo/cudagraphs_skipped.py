"""A graph that Inductor runs without CUDA graphs under `mode="reduce-overhead"`: found only by
compiling a probe that way on a CUDA GPU (`--cudagraphs`; the join layer,
`breaklint.dynamic.join`, makes the findings; this module holds the page)."""

from breaklint.findings import Severity
from breaklint.rule import Phase, Rule


class CudagraphsSkipped(Rule):
    code = "BL920"
    phase = Phase.DYNAMIC
    name = "cudagraphs-skipped"
    severity = Severity.WARNING
    message = 'Inductor runs this graph without CUDA graphs under mode="reduce-overhead"'
    hint = "keep the compiled region's tensors on the GPU and its inputs unmutated"
    fix_safety = """
No automatic fix: the reason is seen by compiling and running the probe on a GPU, and what
removes it (a clone of an input, a tensor kept on the GPU) changes what the code allocates.
"""
    what = """
With `--probes ... --cudagraphs`, each probe is compiled a second time, with
`torch.compile(mode="reduce-overhead")` on the CUDA GPU, and called three times (CUDA graph
trees warm up, record, then replay). Every reason Inductor gives for running a graph without
CUDA graphs ("skipping cudagraphs due to ...") is reported at the line of the probe's code it
names, with Inductor's reason in full: an input the graph mutates in place, a CPU tensor or
a second device in the graph, an op that cannot be captured. The graph itself is not split:
Dynamo's graph and break counts are unchanged, but each call of that graph pays the kernel
launches that CUDA graphs exist to save.

Seen on an H100 with torch 2.11: an input mutated in place (`x.add_(1)`) skips CUDA graphs, at
its line; a mutated buffer or parameter does not (CUDA graphs keep those static). With graph
partitioning on (the default), `.cpu()` inside the graph, a CPU output, streams, events,
captured `.item()` and captured `nonzero` were split off or captured and skipped nothing;
`torch.cuda.synchronize()` is a Dynamo graph break (BL900), reported without this option.
"""
    why = """
`mode="reduce-overhead"` records each graph as a CUDA graph once and then replays it with one
launch. A graph that mutates a tensor it does not own, or touches the CPU, cannot be replayed
safely, so Inductor runs it kernel by kernel and says why only in a log users rarely see.
"""
    example = """
import torch


def scale_(x):
    x.mul_(2)
    return x + 1
"""
    use_instead = """
import torch


def scale(x):
    x = x * 2
    return x + 1
"""
