"""What the probes compile, read from their source without running them."""

from pathlib import Path

from breaklint.probe_roots import probe_roots


def test_a_helper_returning_either_mode_gives_the_instance(tmp_path: Path) -> None:
    probes = tmp_path / "probes.py"
    probes.write_text(
        "from asr.model import CTCModel\n"
        "def _model(train=False):\n"
        "    m = CTCModel()\n"
        "    return m.train() if train else m.eval()\n"
        "def probe_loss():\n"
        "    model = _model(True)\n"
        "    return model.loss, ()\n"
        "def probe_forward():\n"
        "    return _model(), ()\n",
        encoding="utf-8",
    )
    assert probe_roots([str(probes)]) == ("asr.model.CTCModel()", "asr.model.CTCModel().loss")
