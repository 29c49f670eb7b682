"""Pure planning, no ORM: the seating of a round (seating), standings ranked by an ordered tuple of
metrics with the reason each row is above the next (standings), and ratings per game (ratings, with
openskill). The services feed them plain values and store what they give."""
