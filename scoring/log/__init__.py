"""The event log: the event types and their payloads (events), the append-only store that orders them
(store) and the hash chains that make a rewrite visible (chain). It knows no fold, service or face."""
