"""Static findings against Dynamo's breaks on research repositories nobody here wrote: for each
repository in REPOSITORIES, its probe file (`benchmarks/repositories/<name>.py`) is copied into
a checkout as `probes/probes.py` and breaklint runs the checkout with it:

    python benchmarks/repository_breaks.py --checkouts DIR [--python PY] [--names a,b] [--out DIR]

DIR holds one checkout per repository, named as in REPOSITORIES, at the commit given there (no
network here: check them out beforehand). A break statement is a line where Dynamo broke or
skipped a frame on the probes (its BL900/BL901, or a static finding it confirmed); flagged, one
a static error or warning stands on; false, a static error or warning Dynamo did not reproduce
where its probes ran the line. Recompiles (BL8xx, BL91x) are not breaks and are left out.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

PROBES = Path(__file__).resolve().parent / "repositories"
NOT_BREAKS = ("BL8", "BL91", "BL92", "BL902")  # recompiles, CUDA graphs, a probe's own error
REPOSITORIES = {  # name: (GitHub repository, commit)
    "nanogpt": ("karpathy/nanoGPT", "3adf61e154c3fe3fca428ad6bc3818b27a3b8291"),
    "mingpt": ("karpathy/minGPT", "37baab71b9abea1b76ab957409a1cc2fbfba8a26"),
    "llama2_c": ("karpathy/llama2.c", "350e04fe35433e6d2941dce5a1f53308f87058eb"),
    "mamba_minimal": ("johnma2006/mamba-minimal", "03de542a36d873f6e6c4057ad687278cc6ae944d"),
    "detr": ("facebookresearch/detr", "29901c51d7fe8712168b8d0d64351170bc0f83e0"),
    "clip": ("openai/CLIP", "d05afc436d78f1c48dc0dbf8e5980a9d471f35f6"),
    "edm": ("NVlabs/edm", "008a4e5316c8e3bfe61a62f874bddba254295afb"),
    "guided_diffusion": ("openai/guided-diffusion", "22e0df8183507e13a7813f8d38d51b072ca1e67c"),
    "dinov2": ("facebookresearch/dinov2", "b8931f7bf91576930313be2c6d6af376033b35f0"),
    "nerf_pytorch": ("yenchenlin/nerf-pytorch", "63a5a630c9abd62b0f21c08703d0ac2ea7d4b9dd"),
    "raft": ("princeton-vl/RAFT", "2888e15a51fa41140771d3f498ed8023cff098d1"),
    "pointnet2": ("yanx27/Pointnet_Pointnet2_pytorch", "eb64fe0b4c24055559cea26299cb485dcb43d8dd"),
    "score_sde": ("yang-song/score_sde_pytorch", "cb1f359f4aadf0ff9a5e122fe8fffc9451fd6e44"),
    "s4": ("state-spaces/s4", "e757cef57d89e448c413de7325ed5601aceaac13"),
    "encodec": ("facebookresearch/encodec", "0e2d0aed29362c8e8f52494baf3e6f99056b214f"),
    "time_series_library": (
        "thuml/Time-Series-Library",
        "4e938a1767106324dd753b2a44832bf870a0252e",
    ),
    "pykan": ("KindXiaoming/pykan", "ecde4ec3274d3bef1ad737479cf126aed38ab530"),
    "dlrm": ("facebookresearch/dlrm", "090956ee2319ddd349a42232958aefccfe3f7b0a"),
    "gpt_fast": ("pytorch-labs/gpt-fast", "32971d3129541c5bfb4f715abc33d1c5f408d204"),
    "pytorch_vae": ("AntixK/PyTorch-VAE", "a6896b944c918dd7030e7d795a8c13e5c6345ec7"),
    "vq_vae_2": ("rosinality/vq-vae-2-pytorch", "ef5f67c46f93624163776caec9e0d95063910eca"),
    "lightglue": ("cvg/LightGlue", "1fd587b6f5a7a0befd31188f1e5d2f05740006d7"),
    "mixture_of_experts": (
        "davidmrau/mixture-of-experts",
        "f662999727109357c42074997e9a6cd72806f668",
    ),
    "pygat": ("Diego999/pyGAT", "3664f2dc90cbf971564c0bf186dc794f12446d0c"),
    "attention_is_all_you_need": (
        "jadore801120/attention-is-all-you-need-pytorch",
        "132907dd272e2cc92e3c10e6c4e783a87ff8893d",
    ),
    "stylegan2_ada_pytorch": (
        "NVlabs/stylegan2-ada-pytorch",
        "d72cc7d041b42ec8e806021a205ed9349f87c6a4",
    ),
    "retnet": ("Jamie-Stirling/RetNet", "a5841a3ebffd181c7ec1d964b46060519df4b6c8"),
    "glow_pytorch": ("rosinality/glow-pytorch", "97081ff115a694cf04aeedbd58447f33d242c879"),
    "pytorch_unet": ("milesial/Pytorch-UNet", "21d7850f2af30a9695bbeea75f3136aa538cfc4a"),
    "tabnet": ("dreamquark-ai/tabnet", "2c0c4ebd2bb1cb639ea94ab4b11823bc49265588"),
    "ssd_pytorch": ("amdegroot/ssd.pytorch", "5b0b77faa955c1917b0c710d770739ba8fbff9b7"),
    "conformer": ("sooftware/conformer", "b4e7d44944214db6e5912f92ff43d5ea1919eaa2"),
    "pytorch_gan": ("eriklindernoren/PyTorch-GAN", "36d3c77e5ff20ebe0aeefd322326a134a279b93e"),
    "dgcnn": ("WangYueFt/dgcnn", "f765b469a67730658ba554e97dc11723a7bab628"),
    "ppo_pytorch": ("nikhilbarhate99/PPO-PyTorch", "728cce83d7ab628fe2634eabcdf3239997eb81dd"),
    # speech, image restoration, diffusion / flow matching, vision-language: one tuning and one
    # held-out repository per genre (the lower sha1 of the name is tuning)
    "speech_transformer": (
        "kaituoxu/Speech-Transformer",
        "43d83eab2e4e25a4250ddff702aa0a2d4dffe4e6",
    ),
    "diffwave": ("lmnt-com/diffwave", "0594106093b8d8c444de8bd8cd26482f653c569f"),
    "mirnet": ("swz30/MIRNet", "6934e830cac66b6c774d74dc6321d4f43fc8a928"),
    "mprnet": ("swz30/MPRNet", "43feb2aed45f5e0b9082c78c8c455160e30a3a82"),
    "conditional_flow_matching": (
        "atong01/conditional-flow-matching",
        "cacd4dc8a5b6f50de63780e8f73754c9371f15db",
    ),
    "k_diffusion": ("crowsonkb/k-diffusion", "4601bf085320592473f681a62808ed873d17fad5"),
    "nanovlm": ("huggingface/nanoVLM", "4e0c0961846135c2217f95e54cb4c2d66eb55e42"),
    "flamingo_pytorch": ("lucidrains/flamingo-pytorch", "10913abbc8b2ceabb2320560d7d9b85fcb85eee3"),
    # session 22: measured before any change on them (speech, detection, RL, graph, generative, 3D)
    "tacotron2": ("NVIDIA/tacotron2", "185cd24e046cc1304b4f8e564734d2498c6e2e6f"),
    "pytorch_retinanet": ("kuangliu/pytorch-retinanet", "2d7c663350f330a34771a8fa6a4f37a2baa52a1d"),
    "soft_actor_critic": (
        "pranz24/pytorch-soft-actor-critic",
        "c1805660b3961694be54079a355155a5cad492f5",
    ),
    "pygcn": ("tkipf/pygcn", "1600b5b748b3976413d1e307540ccc62605b4d6d"),
    "biggan_pytorch": ("ajbrock/BigGAN-PyTorch", "98459431a5d618d644d54cd1e9fceb1e5045648d"),
    "pointnet_pytorch": ("fxia22/pointnet.pytorch", "bafbf401e0af19be3262e448c59313fd2be0e421"),
}


@dataclass(frozen=True)
class Tally:
    probes_ok: int
    probes: int
    breaks: int
    flagged: int
    false: int

    def row(self, name: str) -> str:
        recall = f"{self.flagged / self.breaks:.2f}" if self.breaks else "n/a"
        return (
            f"| {name} | {self.probes_ok}/{self.probes} | {self.breaks} | {self.flagged} | "
            f"{recall} | {self.false} |"
        )


def tally(report: dict) -> Tally:
    """Break statements, those flagged, and the false findings of one JSON report."""
    breaks: set[tuple[str, int]] = set()
    flagged: set[tuple[str, int]] = set()
    false = set()
    for finding in report["findings"]:
        if finding["code"].startswith(NOT_BREAKS):
            continue
        where = (finding["path"], finding["line"])
        static = finding["origin"] == "static" and finding["severity"] in ("error", "warning")
        if finding["status"] == "confirmed":
            breaks.add(where)
            if static:
                flagged.add(where)
        elif static and finding["status"] == "not-reproduced":
            false.add(where)
    probes = report["probes"]
    ok = sum(p["status"] == "ok" for p in probes)
    return Tally(ok, len(probes), len(breaks), len(flagged), len(false - breaks))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkouts", type=Path, required=True)
    parser.add_argument("--python", default=sys.executable, help="with breaklint and torch")
    parser.add_argument("--names", help="comma-separated names (default: all)")
    parser.add_argument("--out", type=Path, help="a folder to keep each JSON report in")
    args = parser.parse_args()
    names = args.names.split(",") if args.names else list(REPOSITORIES)
    rows, total = [], Tally(0, 0, 0, 0, 0)
    for name in names:
        checkout = args.checkouts / name
        (checkout / "probes").mkdir(exist_ok=True)
        shutil.copyfile(PROBES / f"{name}.py", checkout / "probes" / "probes.py")
        done = subprocess.run(
            [args.python, "-m", "breaklint", "--isolated", "--no-cache", "--jobs", "1", "--quiet",
             "--probes", "probes/probes.py", ".", "--exit-zero", "--output-format", "json"],
            cwd=checkout, capture_output=True, text=True, check=False,
        )  # fmt: skip
        if done.returncode != 0:
            print(f"{name}: breaklint exited {done.returncode}: {done.stderr[-500:]}")
            return 2
        if args.out is not None:
            args.out.mkdir(parents=True, exist_ok=True)
            (args.out / f"{name}.json").write_text(done.stdout, encoding="utf-8")
        found = tally(json.loads(done.stdout))
        rows.append(found.row(f"{name} ({REPOSITORIES[name][0]})"))
        total = Tally(*(a + b for a, b in zip(vars_of(total), vars_of(found), strict=True)))
        print(rows[-1], flush=True)
    print("\n| repository | probes ok | break statements | flagged | recall | false findings |")
    print("| --- | --- | --- | --- | --- | --- |")
    print("\n".join([*rows, total.row("**all**")]))
    return 0


def vars_of(t: Tally) -> tuple[int, ...]:
    return (t.probes_ok, t.probes, t.breaks, t.flagged, t.false)


if __name__ == "__main__":
    raise SystemExit(main())
