"""Compile scope seen through the CLI: roots, reach across files, hooks, disabled helpers."""

from __future__ import annotations

import json


def test_findings_name_the_root_that_reaches_them(breaklint, write) -> None:
    write("pkg/__init__.py", "")
    write(
        "pkg/helpers.py",
        """
        import torch


        def normalise(x):
            print("normalising")
            return x / x.norm()


        @torch.compiler.disable
        def log_stats(x):
            print(x.mean().item())
        """,
    )
    write(
        "pkg/model.py",
        """
        from torch import nn

        from pkg.helpers import log_stats, normalise


        class Encoder(nn.Module):
            def forward(self, x):
                log_stats(x)
                return normalise(x)
        """,
    )
    done = breaklint("--isolated", "--output-format", "json", "-q", "pkg")
    assert done.returncode == 1
    import json

    findings = [
        (f["path"], f["line"], f["code"], f["scope"]) for f in json.loads(done.stdout)["findings"]
    ]
    assert findings == [
        ("pkg/helpers.py", 5, "BL401", "reached from Encoder.forward"),
        ("pkg/model.py", 8, "BL505", "Encoder.forward"),
    ]


def test_pure_hooks_are_quiet_and_breaking_hooks_are_flagged_at_registration(
    breaklint, write
) -> None:
    write(
        "hooks.py",
        """
        import torch


        def scale(module, inputs, output):
            return output * 2


        def shout(module, inputs, output):
            print(output.shape)


        layer = torch.nn.Linear(2, 2)
        layer.register_forward_hook(scale)
        layer.register_forward_pre_hook(shout)
        """,
    )
    done = breaklint("--isolated", "--output-format", "concise", "-q", "hooks.py")
    assert done.returncode == 1
    assert [line.split(" ")[0:2] for line in done.stdout.splitlines()] == [
        ["hooks.py:9:5:", "BL401"],
        ["hooks.py:14:1:", "BL701"],
    ]


def test_a_registration_is_located_in_characters_over_all_its_lines(breaklint, write) -> None:
    write(
        "hooks.py",
        """
        import torch


        def shout(module, inputs, output):
            print(output.shape)


        layer = torch.nn.Linear(2, 2)
        café = layer.register_forward_hook(shout)
        handle = layer.register_forward_pre_hook(
            shout,
        )
        """,
    )
    done = breaklint("--isolated", "--output-format", "json", "hooks.py")
    spans = [
        (f["line"], f["column"], f["end_line"], f["end_column"])
        for f in json.loads(done.stdout)["findings"]
        if f["code"] == "BL701"
    ]
    assert spans == [(9, 8, 9, 42), (10, 10, 12, 2)]


def test_roots_narrow_what_counts_as_compiled(breaklint, write) -> None:
    write("pkg/__init__.py", "")
    write(
        "pkg/transforms.py",
        """
        from torch import nn


        class Jitter(nn.Module):
            def forward(self, x):
                print("augmenting")
                return x
        """,
    )
    write(
        "pkg/model.py",
        """
        from torch import nn


        class Model(nn.Module):
            def forward(self, x):
                print("forward")
                return x
        """,
    )

    def flagged(*options: str) -> list[tuple[str, int]]:
        done = breaklint("--output-format", "json", "--no-cache", *options, "pkg")
        assert done.returncode == 1, done.stderr
        return [(f["path"], f["line"]) for f in json.loads(done.stdout)["findings"]]

    everything = [("pkg/model.py", 6), ("pkg/transforms.py", 6)]
    assert flagged("--isolated") == everything
    assert flagged("--isolated", "--roots", "Model.forward") == [("pkg/model.py", 6)]
    write("pyproject.toml", '[tool.breaklint]\nroots = ["pkg.model.*"]\n')
    assert flagged() == [("pkg/model.py", 6)]
    assert flagged("--roots", "*") == everything  # the command line wins
    write("pyproject.toml", '[tool.breaklint]\nroots = "Model.forward"\n')
    done = breaklint("pkg")
    assert done.returncode == 2
    assert "'roots' must be a list of strings" in done.stderr


HELPERS = {
    "pkg/__init__.py": "",
    "pkg/fast.py": "def scale(x):\n    return x * x.max().item()\n",
    "pkg/slow.py": "def scale(x):\n    return x\n",
}


def _concise(breaklint, *paths: str) -> list[str]:
    result = breaklint(*paths, "--output-format", "concise", "--no-cache")
    assert "Traceback" not in result.stderr and result.returncode in (0, 1), result.stderr
    return result.stdout.splitlines()


def test_an_import_cycle_through_re_exports_is_followed_to_its_end(breaklint, write) -> None:
    for path, text in HELPERS.items():
        write(path, text)
    write("pkg/a.py", "from pkg.b import helper\nfrom pkg.b import scale\n")
    write("pkg/b.py", "from pkg.a import helper\nfrom pkg.fast import scale\n")
    write(
        "pkg/model.py",
        """
        import torch
        from pkg.a import helper, scale


        class M(torch.nn.Module):
            def forward(self, x):
                return scale(helper(x))
        """,
    )
    for scope in ("compiled", "all"):
        assert [line.split(" BL")[0] for line in _concise(breaklint, ".", "--scope", scope)] == [
            "pkg/fast.py:2:16:"
        ]


MODEL_WITH_LOCAL_IMPORT = """
import torch
from pkg.{module} import scale


def eager_only():
    from pkg.{other} import scale

    return scale


class M(torch.nn.Module):
    def forward(self, x):
        {local}
        return scale(x)
"""


def test_an_import_in_a_function_binds_its_name_there_only(breaklint, write) -> None:
    for path, text in HELPERS.items():
        write(path, text)
    # A local import elsewhere leaves the module's binding to the function that uses it...
    write("pkg/m.py", MODEL_WITH_LOCAL_IMPORT.format(module="fast", other="slow", local="pass"))
    assert [line.split(" BL")[0] for line in _concise(breaklint, "pkg")] == ["pkg/fast.py:2:16:"]
    # ... and one in the function itself wins over the module's there.
    local = "from pkg.fast import scale"
    write("pkg/m.py", MODEL_WITH_LOCAL_IMPORT.format(module="slow", other="slow", local=local))
    assert [line.split(" BL")[0] for line in _concise(breaklint, "pkg")] == ["pkg/fast.py:2:16:"]


def test_a_class_defined_on_both_ways_of_an_if_is_analysed_twice(breaklint, write) -> None:
    write(
        "model.py",
        """
        import torch

        FAST = True
        if FAST:
            class Q(torch.nn.Module):
                def forward(self, x):
                    return x.item()
        else:
            class Q(torch.nn.Module):
                def forward(self, x):
                    print(x)
                    return x
        """,
    )
    result = breaklint("model.py", "--output-format", "json", "--no-cache")
    found = [(f["code"], f["line"], f["scope"]) for f in json.loads(result.stdout)["findings"]]
    assert found == [("BL101", 7, "Q.forward"), ("BL401", 11, "Q.forward")]


def test_every_definition_of_a_function_is_reached(breaklint, write) -> None:
    write(
        "model.py",
        """
        import typing

        import torch

        if torch.cuda.is_available():
            def scale(x):
                return x * x.max().item()
        else:
            def scale(x):
                print(x)
                return x


        @typing.overload
        def shift(x: int) -> int: ...
        @typing.overload
        def shift(x: torch.Tensor) -> torch.Tensor: ...
        def shift(x):
            return x + x.nonzero().sum()


        class M(torch.nn.Module):
            def forward(self, x):
                return shift(scale(x))
        """,
    )
    result = breaklint("model.py", "--output-format", "json", "--no-cache")
    found = [(f["code"], f["line"], f["scope"]) for f in json.loads(result.stdout)["findings"]]
    assert found == [
        ("BL101", 7, "reached from M.forward"),
        ("BL401", 10, "reached from M.forward"),
        ("BL301", 19, "reached from M.forward"),
    ]


def test_making_an_instance_reaches_its_init_or_a_dataclass_post_init(breaklint, write) -> None:
    write("pkg/__init__.py", "")
    write(
        "pkg/outputs.py",
        """
        import warnings
        from dataclasses import dataclass

        import torch


        @dataclass
        class Output:
            value: torch.Tensor

            def __post_init__(self):
                warnings.warn("Output is deprecated")


        class Record:
            def __init__(self, value):
                print("recorded")
                self.value = value


        @dataclass
        class Quiet:
            value: torch.Tensor

            def __post_init__(self):
                self.value = self.value * 1

        class Unused:
            def __init__(self):
                print("never made in compiled code")
        """,
    )
    write(
        "pkg/model.py",
        """
        from torch import nn

        from pkg import outputs


        class Encoder(nn.Module):
            def forward(self, x):
                record = outputs.Record(x)
                return outputs.Output(record.value), outputs.Quiet(x)
        """,
    )
    done = breaklint("--isolated", "--output-format", "json", "--no-cache", "pkg")
    found = [
        (f["path"], f["line"], f["code"], f["scope"]) for f in json.loads(done.stdout)["findings"]
    ]
    assert found == [
        ("pkg/outputs.py", 12, "BL403", "reached from Encoder.forward"),
        ("pkg/outputs.py", 17, "BL401", "reached from Encoder.forward"),
    ]
