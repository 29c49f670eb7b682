"""The tournament API, a face: DRF views (views) and their routes (urls), thin over the services and
selectors."""
