"""`breaklint --hf MODEL` end to end: tiny models built from configs, probed and linted."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest

from conftest import run_breaklint

pytest.importorskip("torch", reason="--hf runs Dynamo on the model: needs torch")
transformers = pytest.importorskip("transformers", reason="--hf builds transformers models")

CUSTOM_CONFIG = """
    from transformers import PretrainedConfig


    class TinyConfig(PretrainedConfig):
        model_type = "tiny-custom"

        def __init__(self, hidden_size=64, num_hidden_layers=2, vocab_size=1000, **kwargs):
            self.hidden_size = hidden_size
            self.num_hidden_layers = num_hidden_layers
            self.vocab_size = vocab_size
            super().__init__(**kwargs)
"""
CUSTOM_MODEL = """
    import torch
    from transformers import PreTrainedModel
    from transformers.modeling_outputs import BaseModelOutput

    from .configuration_tiny import TinyConfig


    class TinyModel(PreTrainedModel):
        config_class = TinyConfig
        main_input_name = "input_ids"

        def __init__(self, config):
            super().__init__(config)
            self.embed = torch.nn.Embedding(config.vocab_size, config.hidden_size)
            self.layers = torch.nn.ModuleList(
                torch.nn.Linear(config.hidden_size, config.hidden_size)
                for _ in range(config.num_hidden_layers)
            )
            self.post_init()

        def forward(self, input_ids, attention_mask=None):
            hidden = self.embed(input_ids)
            for layer in self.layers:
                hidden = layer(hidden)
            scale = hidden.abs().max().item()
            return BaseModelOutput(last_hidden_state=hidden / scale)
"""
CUSTOM_JSON = {
    "model_type": "tiny-custom",
    "auto_map": {
        "AutoConfig": "configuration_tiny.TinyConfig",
        "AutoModel": "modeling_tiny.TinyModel",
    },
    "hidden_size": 256,
    "num_hidden_layers": 6,
    "vocab_size": 5000,
}


def _folder(tmp_path: Path, name: str, config: dict, files: dict[str, str]) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")
    for file, source in files.items():
        (folder / file).write_text(textwrap.dedent(source).lstrip(), encoding="utf-8")
    return folder


def _table(stderr: str) -> dict[str, list[str]]:
    lines = stderr.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("model "))
    rows = [line.split() for line in lines[start + 1 :] if not line.startswith(("Found", "All"))]
    return {row[0]: row[1:6] for row in rows}


def test_model_types_and_a_local_config_folder_run_clean(tmp_path: Path):
    gpt2_folder = _folder(
        tmp_path, "my-gpt2", {"model_type": "gpt2", "n_layer": 12, "n_embd": 768}, {}
    )
    done = run_breaklint(
        *("--hf", "gpt2", "--hf", "bert", "--hf", str(gpt2_folder)),
        *("--output-format", "json", "--jobs", "2", "--no-cache"),
        cwd=tmp_path,
    )
    assert done.returncode in (0, 1), done.stderr
    document = json.loads(done.stdout)
    # Probes are named after the models, not after the temporary file that builds them.
    probes = {probe["probe"]: probe for probe in document["probes"]}
    assert sorted(probes) == sorted(["hf::bert", "hf::gpt2", f"hf::{gpt2_folder}"])
    for probe in probes.values():
        assert (probe["status"], probe["graphs"], probe["breaks"]) == ("ok", 1, 0), probe
    # Only the models' modeling files are linted, and nothing they ran is a false finding.
    folders = {Path(f["path"]).parent.name for f in document["findings"]}
    assert folders <= {"gpt2", "bert"}
    assert {f["status"] for f in document["findings"]} <= {"not-reached"}
    table = _table(done.stderr)
    assert table["gpt2"][:4] == ["ok", "1", "0", "0"]
    assert table["bert"][:4] == ["ok", "1", "0", "0"]
    assert table[str(gpt2_folder)][:4] == ["ok", "1", "0", "0"]


def test_custom_code_runs_only_when_trusted_and_its_break_is_confirmed(tmp_path: Path):
    folder = _folder(
        tmp_path,
        "tiny",
        CUSTOM_JSON,
        {"configuration_tiny.py": CUSTOM_CONFIG, "modeling_tiny.py": CUSTOM_MODEL},
    )
    refused = run_breaklint("--hf", str(folder), cwd=tmp_path)
    assert refused.returncode == 2
    assert refused.stderr == (
        f"breaklint: error: --hf {folder}: config.json maps to custom modeling code in that "
        "folder (auto_map); it runs only with --trust-remote-code\n"
    )
    done = run_breaklint(
        *("--hf", str(folder), "--trust-remote-code", "--output-format", "json", "--no-cache"),
        cwd=tmp_path,
    )
    assert done.returncode == 1, done.stderr
    (finding,) = json.loads(done.stdout)["findings"]
    assert (finding["code"], finding["path"], finding["line"]) == (
        "BL101",
        str(folder / "modeling_tiny.py"),
        25,
    )
    assert (finding["status"], finding["gb_id"]) == ("confirmed", "GB0124")
    assert finding["probe"] == f"hf::{folder}"


def test_unknown_type_is_a_one_line_usage_error(tmp_path: Path):
    done = run_breaklint("--hf", "no-such-model", cwd=tmp_path)
    assert done.returncode == 2
    version = transformers.__version__
    assert done.stderr == (
        f"breaklint: error: --hf no-such-model: unknown model type 'no-such-model' for "
        f"transformers {version}\n"
    )
    # A folder is a path: a bare name never is, and the message says how to name it.
    _folder(tmp_path, "my-model", {"model_type": "gpt2"}, {})
    done = run_breaklint("--hf", "my-model", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr == (
        f"breaklint: error: --hf my-model: unknown model type 'my-model' for transformers "
        f"{version}; a folder is written as a path: ./my-model\n"
    )
    done = run_breaklint("--hf", "./missing", cwd=tmp_path)
    assert (done.returncode, done.stderr) == (
        2,
        "breaklint: error: --hf ./missing: no such folder\n",
    )


def test_a_type_lints_its_own_modeling_file_whatever_folders_the_cwd_holds(tmp_path: Path):
    # A `llama/` folder here is not the model; llama's modeling file is the one file linted
    # (a regex over config sources once added glmasr's, whose config mentions llama).
    _folder(tmp_path, "llama", {"model_type": "gpt2"}, {})
    done = run_breaklint("--hf", "llama", "--output-format", "junit", "--no-cache", cwd=tmp_path)
    assert done.returncode in (0, 1), done.stderr
    linted = re.findall(r'<testcase [^>]*file="([^"]+)"', done.stdout)
    assert [Path(path).relative_to(Path(transformers.__file__).parent) for path in linted] == [
        Path("models/llama/modeling_llama.py")
    ]
    assert _table(done.stderr)["llama"][:4] == ["ok", "1", "0", "0"]


def test_a_type_that_cannot_be_built_says_why_without_a_traceback(tmp_path: Path):
    done = run_breaklint("--hf", "encoder-decoder", "--no-cache", cwd=tmp_path)
    assert done.returncode == 2
    assert (
        "breaklint: error: cannot build --hf encoder-decoder (eval): EncoderDecoderModel.forward("
        "input_ids=[2, 8], attention_mask=[2, 8]) raised ValueError: "
    ) in done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert "BL902" not in done.stdout


def test_fixes_do_not_apply_to_installed_models(tmp_path: Path):
    done = run_breaklint("--hf", "gpt2", "--fix", cwd=tmp_path)
    assert done.returncode == 2
    assert "--fix and --diff do not apply to --hf models" in done.stderr


def test_zoo_gives_a_row_per_type_and_unbuilt_types_are_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    from breaklint import cli, hf_models

    # Two types stand for the zoo (all 800 take an hour): one that builds, one that cannot.
    zoo = {name: hf_models.model_sources("eval")[name] for name in ("gpt2", "encoder-decoder")}
    monkeypatch.setattr(hf_models, "model_sources", lambda mode: zoo)
    monkeypatch.chdir(tmp_path)
    code = cli.main(["--hf", "all", "--jobs", "2", "--no-cache", "--output-format", "json"])
    out, err = capsys.readouterr()
    assert code in (0, 1), err
    assert "breaklint: error" not in err
    table = _table(err)
    assert table["gpt2"][:4] == ["ok", "1", "0", "0"]
    assert table["encoder-decoder"][:2] == ["not", "built"]
    assert "EncoderDecoderModel.forward(input_ids=[2, 8]" in err
    assert sorted(p["probe"] for p in json.loads(out)["probes"]) == [
        "hf::encoder-decoder",
        "hf::gpt2",
    ]


def test_all_goes_alone(tmp_path: Path):
    done = run_breaklint("--hf", "all", "--hf", "gpt2", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr == "breaklint: error: --hf all runs every model type: give it alone\n"


def test_train_mode_runs_the_model_with_labels_and_a_loss(tmp_path: Path):
    done = run_breaklint(
        *("--hf", "gpt2", "--hf-mode", "train", "--output-format", "json", "--no-cache"),
        cwd=tmp_path,
    )
    assert done.returncode in (0, 1), done.stderr
    (probe,) = json.loads(done.stdout)["probes"]
    assert (probe["probe"], probe["status"]) == ("hf::gpt2", "ok")
    assert probe["graphs"] >= 1
    assert _table(done.stderr)["gpt2"][0] == "ok"
