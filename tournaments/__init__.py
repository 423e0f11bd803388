"""Tournaments (round robin, Swiss, knockout, duplicate) and ratings: pure pairing and standings, and
the services, selectors and tasks that run them."""
