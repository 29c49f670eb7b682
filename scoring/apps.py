from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Scoring"

    # What the service's own database role may do on each of this app's tables (``manage.py
    # grant_app_role``, docs/security.md): model (or "model.m2m field") -> (rights on the table, the
    # only columns it may UPDATE). What decides a result is written once and never updated by the service:
    # the log, the seats, a match's game, options and club, a hand's match, number, stream and dealer.
    app_role_rights = {
        "StoredEvent": ("SELECT, INSERT", ()),
        "Match": ("SELECT, INSERT", ("title", "published", "sheet", "status", "abandon_reason")),
        "MatchSeat": ("SELECT, INSERT", ()),
        "Match.scorers": ("SELECT, INSERT, DELETE", ()),
        "Hand": (
            "SELECT, INSERT",
            ("version", "position", "status", "flagged", "result", "ruled_against", "updated_at"),
        ),
    }
