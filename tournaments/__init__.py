"""Tournaments: clubs, players and (as they land) tournaments, standings and seating."""
