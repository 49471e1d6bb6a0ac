#!/usr/bin/env bash
# The dynamic phase on a CUDA machine, in one pass that fits a short lease:
#   1. the test suite with CUDA visible: every probe's `--device auto` resolves to cuda;
#   2. the tests that failed there, again with CUDA hidden, on the same machine and torch:
#      a failure in both is the torch version's, a failure only in 1 is CUDA's;
#   3. the CLI end to end on the dynamic corpus and on two --hf models, --device cuda and
#      --device cpu side by side, compared probe by probe.
# Needs a python3 with torch (CUDA build) and libcst; more wheels can come in WHEELS (a folder).
# Writes its logs and reports (a dozen files) into one archive, $OUT/gpu-check.tar.gz (default
# OUT: gpu-check/ here): a lent device machine sends back at most eight files.
set -uo pipefail
cd "$(dirname "$0")/.."
archive=$(realpath -m "${OUT:-gpu-check}")/gpu-check.tar.gz
mkdir -p "$(dirname "$archive")"
out=$(mktemp -d)
trap 'tar czf "$archive" -C "$out" .' EXIT

# Into a folder on PYTHONPATH, beside the torch that python3 has (a venv would not see it when
# python3 is itself a venv's); installed, not editable, so the pytest plugin is registered.
py=python3
site=$(mktemp -d)
if [ -n "${WHEELS:-}" ]; then
    $py -m pip install -q --no-index --no-deps --target "$site" "$WHEELS"/*.whl
fi
$py -m pip install -q --no-index --no-deps --no-build-isolation --target "$site" . || exit 2
# The console script too: some tests run `breaklint` by name.
export PYTHONPATH=$site PATH=$site/bin:$PATH
{
    nvidia-smi -L
    $py -c "import sys, torch, transformers; print(sys.version.split()[0], torch.__version__,
torch.version.cuda, torch.cuda.is_available(), torch.cuda.get_device_name(0), transformers.__version__)"
} > "$out/env.txt" 2>&1
cat "$out/env.txt"

# Tests that need tools this machine lacks (ruff, mypy, mkdocs, pre-commit) are left out.
skip=(--ignore=tests/test_docs.py --ignore=tests/test_precommit.py --ignore=tests/test_readme_ci.py)
workers=$(($(nproc) > 2 ? $(nproc) - 2 : 1))
# -v: one line per test as it ends; SIGINT at the timeout: pytest stops and still prints the
# failures so far with their tracebacks.
timeout -s INT -k 20 "${SUITE_TIMEOUT:-300}" $py -m pytest -v -n "$workers" --dist worksteal \
    -p no:benchmark --tb=short "${skip[@]}" -rfEs > "$out/cuda-tests.log" 2>&1
echo "cuda suite rc=$?"
# One per test: the lines `-v` writes as each ends (the `-rfEs` summary repeats the failures).
grep -E "^\[gw[0-9]+\]" "$out/cuda-tests.log" | grep -oE "(PASSED|FAILED|ERROR|SKIPPED)" | sort | uniq -c
# By function: a parameter's id may hold spaces or newlines, and one id cut there made the
# rerun collect nothing (seen on an H200).
grep -oE "(FAILED|ERROR) tests/[^ ]+" "$out/cuda-tests.log" | awk '{print $2}' | sed 's/\[.*//' \
    | sort -u > "$out/cuda-failed.txt"
if [ -s "$out/cuda-failed.txt" ]; then
    mapfile -t failed < "$out/cuda-failed.txt"
    CUDA_VISIBLE_DEVICES="" timeout -s INT -k 20 "${RERUN_TIMEOUT:-150}" $py -m pytest -v \
        -n "$workers" --dist worksteal -p no:benchmark --tb=short "${failed[@]}" \
        > "$out/cpu-rerun.log" 2>&1
    echo "the ${#failed[@]} failed tests again with CUDA hidden: rc=$?"
    grep -oE "(PASSED|FAILED|ERROR) tests/[^ ]+" "$out/cpu-rerun.log" | sort -k2
fi

corpus=$(mktemp -d)
cp tests/corpus/models.py tests/corpus/layers.py tests/corpus/probes.py "$corpus"
for device in cuda cpu; do
    started=$SECONDS
    (cd "$corpus" && $py -m breaklint models.py layers.py --probes probes.py --device "$device" \
        --output-format json --quiet > "$out/corpus-$device.json" \
        2> "$out/corpus-$device.err")
    echo "corpus --device $device: rc=$? $((SECONDS - started)) s"
    started=$SECONDS
    (cd "$corpus" && $py -m breaklint --hf gpt2 --device "$device" \
        --output-format json > "$out/hf-$device.json" 2> "$out/hf-$device.err")
    echo "hf --device $device: rc=$? $((SECONDS - started)) s"
    tail -n 6 "$out/hf-$device.err"
done
$py - "$out" <<'EOF'
import json, sys
from pathlib import Path

def seen(name):
    report = json.loads(Path(sys.argv[1], name).read_text())
    probes = {p["probe"]: (p["device"], p["status"], p["graphs"], p["breaks"], p["frames_skipped"])
              for p in report["probes"]}
    confirmed = sorted((f["path"], f["line"], f["code"]) for f in report["findings"]
                       if f["status"] == "confirmed")
    return probes, confirmed

for kind in ("corpus", "hf"):
    (cuda, cuda_found), (cpu, cpu_found) = seen(f"{kind}-cuda.json"), seen(f"{kind}-cpu.json")
    devices = sorted({v[0] for v in cuda.values()} | {v[0] for v in cpu.values()})
    same = [k for k in cuda if cpu.get(k, ())[1:] == cuda[k][1:]]
    print(f"{kind}: {len(cuda)} probes, devices seen {devices}, {len(same)} alike on cuda and cpu,"
          f" confirmed findings cuda {len(cuda_found)} cpu {len(cpu_found)},"
          f" same: {cuda_found == cpu_found}")
    for key in sorted(set(cuda) | set(cpu)):
        if cpu.get(key, ())[1:] != cuda.get(key, ())[1:]:
            print(f"  differs {key}: cuda {cuda.get(key)} cpu {cpu.get(key)}")
EOF
