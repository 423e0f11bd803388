"""The REST API: thin views over games.services (writes) and games.selectors (reads)."""
