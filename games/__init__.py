"""The games app: event store (models), write services, read selectors, and the pure engines."""
