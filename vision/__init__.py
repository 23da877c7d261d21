"""From a photo to tiles: find each tile (OpenCV) and name it (ONNX classifier).

Nothing here knows about HTTP or scoring rules.
"""
