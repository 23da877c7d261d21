"""Mahjong hand scoring: a pure-Python library with no image or HTTP dependencies.

It knows tiles (:mod:`scoring.tiles`), how to read a hand into sets, and how
each rule preset turns a reading into fan or points and payments.
"""
