"""The product's front doors: the FastAPI service, the web page and the ``mjlens`` CLI.

This package only wires :mod:`vision` and :mod:`scoring` together.
"""
