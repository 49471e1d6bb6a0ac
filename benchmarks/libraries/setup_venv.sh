#!/usr/bin/env bash
# Builds the environment of benchmarks/library_accuracy.py (never the dev venv):
#   bash benchmarks/libraries/setup_venv.sh [VENV]        (default /work/bench-venv)
# torch is pinned to the local CPU wheel: an unpinned torch pulls GBs of CUDA.
set -euo pipefail
venv=${1:-/work/bench-venv}
repo=$(cd "$(dirname "$0")/../.." && pwd)
python3 -m venv "$venv"
pip="$venv/bin/pip"
"$pip" install torch==2.13.0
"$pip" install -e "$repo[hf]" "transformers==5.24.0"
# The `bench` extra's libraries without their declared dependencies: PyPI's torchvision is a
# CUDA build whose compiled ops cannot load beside the CPU torch, and whisper asks for triton,
# which CPU runs never use. Their runtime dependencies follow by hand.
libraries=$("$venv/bin/python" -c '
import re, sys, tomllib
extra = tomllib.load(open(sys.argv[1], "rb"))["project"]["optional-dependencies"]["bench"]
# By exact name: torch-geometric starts with "torch" but is one of the libraries.
installed = {"breaklint", "torch", "transformers"}
print(" ".join(r for r in extra if re.split(r"[\[=<>]", r)[0] not in installed))
' "$repo/pyproject.toml")
# shellcheck disable=SC2086  # one word per requirement
"$pip" install --no-deps torchvision==0.28.0 $libraries
"$pip" install einops einx loguru torch-einops-utils packaging numpy numba tqdm more-itertools \
    tiktoken pyyaml huggingface_hub safetensors pillow scipy accelerate ema-pytorch
# What torch-geometric and kornia import at import time (their other declared dependencies,
# aiohttp and pyparsing, are never imported by the installed packages).
"$pip" install xxhash==4.1.0 kornia-rs==0.2.0
# e3nn optimises its generated tensor-product code with opt_einsum_fx (its other dependencies,
# sympy and scipy, are already here); mmdit's residual streams are hyper-connections (in the
# extra); normflows, torchdiffeq and zuko need only numpy and scipy, torchsde trampoline (in the
# extra) besides.
"$pip" install opt-einsum==3.4.0 opt-einsum-fx==0.1.4
# monai needs only numpy; torchmetrics lightning-utilities (in the extra), packaging and numpy;
# pyro-ppl pyro-api (in the extra), opt-einsum, tqdm and numpy: all already here.
# botorch imports gpytorch, linear_operator, scipy and its small helpers (pyre-extensions with
# typing-inspect and mypy-extensions, multipledispatch, threadpoolctl: in the extra; never
# ninja, which only builds its optional C++ extension). neuraloperator's models need tensorly and
# tensorly-torch (in the extra) and opt-einsum; the rest of its declared dependencies (wandb,
# h5py, zarr, matplotlib, configuration parsers) serve its training scripts and data loaders.
# fair-esm declares none; peft needs transformers, accelerate, safetensors, huggingface_hub,
# pyyaml, tqdm and psutil (in the extra).
# stable-baselines3 needs gymnasium, with cloudpickle and farama-notifications (all in the extra),
# and numpy; pytorch-metric-learning numpy and tqdm (its declared scikit-learn serves only its
# accuracy calculator and testers); piq nothing more than torchvision's pure-Python parts.
# reformer-pytorch imports axial-positional-embedding, local-attention (with hyper-connections)
# and product-key-memory, which imports colt5-attention (all in the extra; colt5-attention also
# packaging), and einops; pytorch-tabnet's networks import only numpy (its scikit-learn, pandas and
# scipy serve the estimator wrappers, which the builders never import); egnn-pytorch einops (its
# declared numba is never imported) and, for its sparse layers, torch-geometric (in the extra).
# einops-exts (in the extra, for the research repository lucidrains/flamingo-pytorch of
# benchmarks/repository_breaks.py) needs only einops.
# demucs's model code imports julius (in the extra) and einops; its declared torchaudio has no
# wheel for torch 2.13 and only its command line, training and audio files need it (and lameenc,
# sphn, dora-search). gpytorch imports linear_operator (in the extra), scipy and mpmath; it asks
# for scikit-learn only inside two initialisation helpers.
# timm, vit-pytorch, denoising-diffusion-pytorch and segment-anything import torchvision at
# import time, and use only its pure-Python parts on the builders' paths. torchvision 0.28
# registers fake kernels for its two nms ops without checking that its compiled ops loaded (its
# other meta registrations do check): guard those two the same way.
"$venv/bin/python" - <<'PY'
import importlib.util
from pathlib import Path

spec = importlib.util.find_spec("torchvision")
path = Path(next(iter(spec.submodule_search_locations))) / "_meta_registrations.py"
unguarded = '@torch.library.register_fake("torchvision::'
guarded = (
    "@(torch.library.register_fake if torchvision.extension._has_ops() "
    'else lambda _: lambda f: f)("torchvision::'
)
path.write_text(path.read_text().replace(unguarded, guarded))
PY
"$venv/bin/python" -c "
import denoising_diffusion_pytorch, segment_anything, timm, transformers, vector_quantize_pytorch
import vit_pytorch, whisper, x_transformers, torch_geometric, kornia
import demucs.apply, demucs.htdemucs, gpytorch, linear_operator
import e3nn.o3, hyper_connections, mmdit, normflows, torchdiffeq, torchsde, zuko
import monai.networks.nets, monai.losses, torchmetrics.functional, pyro.infer, pyro.contrib.gp
import botorch.acquisition, neuralop.models, esm, peft
import stable_baselines3.ppo, stable_baselines3.sac, pytorch_metric_learning.losses, piq
import reformer_pytorch, pytorch_tabnet.tab_network, egnn_pytorch
print('bench environment ready')"
