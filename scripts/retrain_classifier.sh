#!/usr/bin/env bash
# Re-train the tile classifier and its second stage (the bonus reader) from scratch,
# in under an hour on a 2-core laptop: render both data sets, train against the wall
# clock, export to ONNX (quantized to int8, models/quantize.py), measure.
#
#   bash scripts/retrain_classifier.sh            # writes build/retrain/ (models, metrics)
#   OUT=models bash scripts/retrain_classifier.sh # replaces the shipped models
#
# Needs the Debian packages of datasets/SOURCES.md and `pip install -e '.[train]'`.
# The bonus reader starts from the tile classifier's weights and gets READER_MIN
# minutes; the tile classifier gets whatever is left of TOTAL_MIN after the data
# builds (at least 20), so a slow or busy machine sees fewer batches instead of a
# longer run. READER_INIT starts the reader from another checkpoint instead. The
# shipped models are chains of fine-tunes (models/MODEL_CARD.md): the tile classifier,
# run 36, is run 10 fine-tuned 20 minutes on the current data; the reader, run 37, is
# run 10's reader, 12 minutes on the run-15 bonus data, 12 more on the current data with
# --restyle 0.5 --restyle-kernels 1. models/checkpoint_from_onnx.py turns a shipped
# model back into a checkpoint to start from. Checkpoints are written into $OUT.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${DATA:-build/tiles37}
BONUS_DATA=${BONUS_DATA:-build/bonus37}
OUT=${OUT:-build/retrain}
TOTAL_MIN=${TOTAL_MIN:-57}
READER_MIN=${READER_MIN:-12}
READER_INIT=${READER_INIT:-$OUT/tilenet.pt}
start=$(date +%s)
python3 -m datasets.tile_dataset --out "$DATA" --train-per-class 1600 --test-per-class 120 --seed 2
python3 -m datasets.tile_dataset --reader bonus --out "$BONUS_DATA" --train-per-class 1500 \
    --test-per-class 120 --seed 3
used_min=$(( ($(date +%s) - start) / 60 ))
budget=$(( TOTAL_MIN - used_min - READER_MIN - 4 ))  # 4 minutes for exports and evaluation
(( budget < 20 )) && budget=20
python3 models/train_classifier.py --data "$DATA" --budget-min "$budget" --real-reps 10 \
    --seed 0 --out "$OUT"
python3 models/train_classifier.py --reader bonus --data "$BONUS_DATA" --init "$READER_INIT" \
    --lr 2e-3 --budget-min "$READER_MIN" --real-reps 16 --seed 0 --out "$OUT"
python3 models/evaluate_classifier.py --data "$DATA" --bonus-data "$BONUS_DATA" \
    --model "$OUT/tile-classifier.onnx" --out "$OUT"
echo "retrained in $(( ($(date +%s) - start) / 60 )) min: $OUT"
