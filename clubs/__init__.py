"""Clubs, their players and members, and the roles that decide who may do what: the bottom of the
house, which both the scoring and the tournaments stand on and which imports neither."""
