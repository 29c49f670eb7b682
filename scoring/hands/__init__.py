"""A hand as the engine sees it: its events folded through the rules (fold), the state kept after a
move so that the next one need not replay (snapshot, foldcache), and hand and match records, the file
format (records). It uses the engine (scoring.rules) and the log (scoring.log), nothing above them."""
