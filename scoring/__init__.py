"""Scoring: the event store and, in `scoring.rules`, the pure-Python rule engine.

Nothing is imported here, so that `scoring.rules` stays importable without Django.
"""
