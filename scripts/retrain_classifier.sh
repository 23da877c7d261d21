#!/usr/bin/env bash
# Re-train the tile classifier from scratch, in under an hour on a 2-core laptop:
# render the data set, train against the wall clock, export to ONNX, measure.
#
#   bash scripts/retrain_classifier.sh            # writes build/retrain/ (model, metrics)
#   OUT=models bash scripts/retrain_classifier.sh # replaces the shipped model
#
# Needs the Debian packages of datasets/SOURCES.md and `pip install -e '.[train]'`.
# The training gets whatever is left of 56 minutes after the data build (at least
# 20), so a slow or busy machine sees fewer batches instead of a longer run.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${DATA:-build/tiles7}
OUT=${OUT:-build/retrain}
TOTAL_MIN=${TOTAL_MIN:-56}
start=$(date +%s)
python3 -m datasets.tile_dataset --out "$DATA" --train-per-class 1600 --test-per-class 120 --seed 2
used_min=$(( ($(date +%s) - start) / 60 ))
budget=$(( TOTAL_MIN - used_min - 2 ))  # 2 minutes for export and evaluation
(( budget < 20 )) && budget=20
python3 models/train_classifier.py --data "$DATA" --budget-min "$budget" --real-reps 10 \
    --seed 0 --out "$OUT"
python3 models/evaluate_classifier.py --data "$DATA" --model "$OUT/tile-classifier.onnx" --out "$OUT"
echo "retrained in $(( ($(date +%s) - start) / 60 )) min: $OUT"
