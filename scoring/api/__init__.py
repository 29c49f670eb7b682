"""The scoring API, a face: DRF views that validate, check the permission, call one service or selector
and serialize (views), their routes (urls), the one error body (errors), the match permissions (permissions),
sign-in for a token (login, auth)."""
