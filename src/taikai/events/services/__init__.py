"""Services: the only way event state changes. Each validates, calls core, saves, and writes an
audit entry in one transaction (STYLE habit 1)."""
