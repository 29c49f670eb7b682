"""Signals other apps listen to, so that scoring never imports them.

``match_changed`` (keyword argument ``match_id``) is sent after the transaction that finished a match
commits, and again whenever a ruling changes or reopens a finished match. Receivers read the match from
the database: it is committed by then.
"""

from django.dispatch import Signal

match_changed = Signal()
