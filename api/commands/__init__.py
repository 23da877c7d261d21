"""One module per ``mjlens`` sub-command.

Each module exposes ``add_parser(subparsers)``, which registers the
sub-command and sets ``func`` (a ``run(args) -> int``) as its default.
"""
