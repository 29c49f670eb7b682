"""The tournament pages, a face: what anyone reads (views: the list, a tournament, its standings, the
live board, a player's history and charts) and what a director does (director), their forms, the
arrangement of what they show (display, charts) and their routes (urls)."""
